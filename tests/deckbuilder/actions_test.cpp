#include "battlecore/deckbuilder/actions.hpp"

#include <array>
#include <set>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace battlecore::deckbuilder {
namespace {

using nlohmann::json;

constexpr std::array kAllPlayChecks = {
    PlayCheck::Ok,
    PlayCheck::WrongPhase,
    PlayCheck::NullCard,
    PlayCheck::MissingPlayer,
    PlayCheck::NotInHand,
    PlayCheck::NoActiveDefinition,
    PlayCheck::CannotPayCost,
    PlayCheck::CancelledByOnPlayHook,
    PlayCheck::Unplayable,
    PlayCheck::RefusedByPlayableHook,
    PlayCheck::TurnPlayLimit,
};
constexpr std::array kAllRefusalReasons = {RefusalReason::NoBattle,         RefusalReason::BattleOver,
                                           RefusalReason::NotYourDecision,  RefusalReason::CannotPlayCard,
                                           RefusalReason::InvalidTarget,    RefusalReason::WaitingForChoice,
                                           RefusalReason::WaitingForReward, RefusalReason::InvalidOption};

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// The error message of parsing `j`, failing the test when it parses.
std::string parse_error(const json& j) {
  const Result<Action> r = action_from_json(j);
  EXPECT_FALSE(r.ok()) << "accepted " << j.dump();
  return r.ok() ? std::string() : r.error().message;
}

// --- the JSON form ---------------------------------------------------------------------------

TEST(DeckbuilderActionJson, EndTurnIsItsTypeAlone) {
  EXPECT_EQ(action_to_json(Action::end_turn()), json({{"type", "end_turn"}}));
}

TEST(DeckbuilderActionJson, PlayCardWithTargetHasCardIdAndTarget) {
  const std::string id = "strike";
  EXPECT_EQ(action_to_json(Action::play(3, 0), &id),
            json({{"type", "play_card"}, {"card", 3}, {"card_id", "strike"}, {"target", 0}}));
}

TEST(DeckbuilderActionJson, PlayCardWithoutTargetOmitsTarget) {
  EXPECT_EQ(action_to_json(Action::play(7)), json({{"type", "play_card"}, {"card", 7}}));
}

TEST(DeckbuilderActionJson, RoundTripsEveryShape) {
  const std::string id = "bash";
  for (const Action a : {Action::end_turn(), Action::play(0), Action::play(3, 0), Action::play(9, 1),
                         Action::play(254, 127), Action::play(63, -1), Action::choose(0), Action::choose(3),
                         Action::skip_choice(), Action::take_reward(2), Action::skip_reward()}) {
    for (const std::string* card_id : {static_cast<const std::string*>(nullptr), &id}) {
      const json j = action_to_json(a, card_id);
      const Result<Action> back = action_from_json(j);
      ASSERT_TRUE(back.ok()) << j.dump() << ": " << back.error().message;
      EXPECT_EQ(back.value(), a) << j.dump();
      // Through text too: what a replay file or a front end sends.
      const Result<Action> from_text = action_from_json(json::parse(j.dump()));
      ASSERT_TRUE(from_text.ok()) << j.dump();
      EXPECT_EQ(from_text.value(), a) << j.dump();
    }
  }
}

TEST(DeckbuilderActionJson, CardIdIsInformativeAndIgnored) {
  const Result<Action> a =
      action_from_json(json({{"type", "play_card"}, {"card", 2}, {"card_id", "nonsense"}}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value(), Action::play(2));
}

TEST(DeckbuilderActionJson, ExplicitMinusOneTargetMeansNone) {
  const Result<Action> a = action_from_json(json({{"type", "play_card"}, {"card", 2}, {"target", -1}}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value(), Action::play(2, -1));
}

TEST(DeckbuilderActionJson, RefusesAKeyItsTypeDoesNotTakeListingTheAllowedOnes) {
  // end_turn carries no card: a card on it is a mistake, not a play.
  EXPECT_EQ(parse_error(json({{"type", "end_turn"}, {"card", 3}})), "unknown key 'card'; allowed keys: type");
  EXPECT_EQ(parse_error(json({{"type", "end_turn"}, {"bogus", 1}})),
            "unknown key 'bogus'; allowed keys: type");
  EXPECT_EQ(parse_error(json({{"type", "choose"}, {"index", 0}, {"target", 0}})),
            "unknown key 'target'; allowed keys: type, index");
  EXPECT_EQ(parse_error(json({{"type", "play_card"}, {"card", 1}, {"traget", 0}})),
            "unknown key 'traget'; allowed keys: type, card, card_id, target");
}

// --- every error of action_from_json ---------------------------------------------------------

TEST(DeckbuilderActionJson, RefusesANonObject) {
  for (const json& j : {json::array({1, 2}), json(3), json("end_turn"), json(nullptr), json(true)})
    EXPECT_TRUE(contains(parse_error(j), "must be a JSON object")) << j.dump();
}

TEST(DeckbuilderActionJson, RefusesAMissingType) {
  EXPECT_TRUE(contains(parse_error(json({{"card", 3}})), "needs \"type\""));
  EXPECT_TRUE(contains(parse_error(json::object()), "needs \"type\""));
}

TEST(DeckbuilderActionJson, RefusesATypeThatIsNotAString) {
  EXPECT_TRUE(contains(parse_error(json({{"type", 1}})), "needs \"type\""));
  EXPECT_TRUE(contains(parse_error(json({{"type", nullptr}})), "needs \"type\""));
}

TEST(DeckbuilderActionJson, RefusesAnUnknownTypeNamingIt) {
  const std::string m = parse_error(json({{"type", "pass"}}));
  EXPECT_TRUE(contains(m, "unknown action type 'pass'")) << m;
  // Every type the parser accepts is listed, so a front end can correct itself.
  for (std::string_view type :
       {"play_card", "end_turn", "choose", "skip_choice", "take_reward", "skip_reward"})
    EXPECT_TRUE(contains(m, type)) << type << " missing from: " << m;
  EXPECT_TRUE(contains(m, "play_card, end_turn, choose, skip_choice, take_reward or skip_reward")) << m;
}

TEST(DeckbuilderActionJson, RefusesAChoiceOrRewardWithoutAValidIndex) {
  for (std::string_view type : {"choose", "take_reward"}) {
    const std::string t(type);
    EXPECT_TRUE(contains(parse_error(json({{"type", t}})), "needs \"index\"")) << t;
    for (const json& index : {json(-1), json(256), json("1"), json(nullptr)})
      EXPECT_TRUE(contains(parse_error(json({{"type", t}, {"index", index}})), "[0, 255]"))
          << t << index.dump();
  }
}

TEST(DeckbuilderActionJson, RefusesAPlayWithoutCard) {
  EXPECT_TRUE(contains(parse_error(json({{"type", "play_card"}})), "needs \"card\""));
}

TEST(DeckbuilderActionJson, RefusesACardThatIsNotAnInteger) {
  for (const json& card : {json("3"), json(1.5), json(nullptr), json::array({3})})
    EXPECT_TRUE(contains(parse_error(json({{"type", "play_card"}, {"card", card}})), "needs \"card\""))
        << card.dump();
}

TEST(DeckbuilderActionJson, RefusesACardOutOfRange) {
  // 255 is kNoCard, which names no card.
  for (const json& card : {json(-1), json(255), json(1000)})
    EXPECT_TRUE(contains(parse_error(json({{"type", "play_card"}, {"card", card}})), "[0, 254]"))
        << card.dump();
}

TEST(DeckbuilderActionJson, RefusesATargetThatIsNotAnInteger) {
  for (const json& target : {json("0"), json(0.5), json(nullptr)})
    EXPECT_TRUE(contains(parse_error(json({{"type", "play_card"}, {"card", 1}, {"target", target}})),
                         "\"target\" must be an enemy index"))
        << target.dump();
}

TEST(DeckbuilderActionJson, RefusesATargetOutOfRange) {
  for (const json& target : {json(-2), json(128), json(100000)})
    EXPECT_TRUE(contains(parse_error(json({{"type", "play_card"}, {"card", 1}, {"target", target}})),
                         "\"target\" must be an enemy index"))
        << target.dump();
}

// --- names -----------------------------------------------------------------------------------

TEST(DeckbuilderActionNames, PlayChecksAreNamedAndDistinct) {
  std::set<std::string_view> names;
  for (PlayCheck c : kAllPlayChecks) {
    const std::string_view name = play_check_name(c);
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "?") << static_cast<int>(c);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), kAllPlayChecks.size());
}

TEST(DeckbuilderActionNames, RefusalReasonsAreNamedAndDistinct) {
  std::set<std::string_view> names;
  for (RefusalReason r : kAllRefusalReasons) {
    const std::string_view name = refusal_reason_name(r);
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "?") << static_cast<int>(r);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), kAllRefusalReasons.size());
}

TEST(DeckbuilderActionNames, ActionKindsAreTheJsonTypes) {
  EXPECT_EQ(action_kind_name(ActionKind::PlayCard), "play_card");
  EXPECT_EQ(action_kind_name(ActionKind::EndTurn), "end_turn");
  EXPECT_EQ(action_kind_name(ActionKind::ChooseOption), "choose");
  EXPECT_EQ(action_kind_name(ActionKind::SkipChoice), "skip_choice");
  EXPECT_EQ(action_kind_name(ActionKind::TakeReward), "take_reward");
  EXPECT_EQ(action_kind_name(ActionKind::SkipReward), "skip_reward");
}

}  // namespace
}  // namespace battlecore::deckbuilder
