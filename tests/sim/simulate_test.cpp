#include "battlecore/sim/simulate.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/invariant.hpp"
#include "battlecore/deckbuilder/actions.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/recording.hpp"
#include "battlecore/sim/replay.hpp"
#include "deckbuilder/mechanics.hpp"
#include "support/first_option.hpp"
#include "support/starter_pack.hpp"
#include "support/temp_dir.hpp"

namespace battlecore::sim {
namespace {

using test::starter;

/// The report's JSON without the keys that depend on the clock.
nlohmann::json untimed(const SimReport& report) {
  nlohmann::json j = report.to_json();
  for (const char* key : {"elapsed_s", "battles_per_s", "decisions_per_s"}) j.erase(key);
  return j;
}

SimReport run(const SimConfig& config) {
  auto report = simulate_deckbuilder(starter(), config);
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error().message);
  return report.ok() ? report.value() : SimReport{};
}

TEST(SimSimulate, SameConfigGivesTheSameReport) {
  ASSERT_NE(starter(), nullptr);
  const SimConfig config{"w1", 500, 42, "random"};
  const SimReport a = run(config);
  const SimReport b = run(config);
  EXPECT_EQ(untimed(a), untimed(b));
  EXPECT_EQ(a.turns, b.turns);
  EXPECT_EQ(a.hp_left_on_wins, b.hp_left_on_wins);
}

TEST(SimSimulate, DifferentSeedsGiveDifferentReports) {
  ASSERT_NE(starter(), nullptr);
  const SimReport a = run({"w1", 500, 1, "random"});
  const SimReport b = run({"w1", 500, 2, "random"});
  EXPECT_NE(untimed(a)["seed"], untimed(b)["seed"]);
  // 500 battles: the totals of two independent runs coincide on all three by chance only rarely.
  EXPECT_FALSE(a.wins == b.wins && a.turns == b.turns && a.decisions == b.decisions)
      << "seeds 1 and 2 gave the same wins, turns and decisions";
}

TEST(SimSimulate, CountsAreConsistent) {
  ASSERT_NE(starter(), nullptr);
  for (const char* encounter : {"w1", "sludge_pair"}) {
    const SimReport r = run({encounter, 300, 7, "random"});
    SCOPED_TRACE(encounter);
    EXPECT_EQ(r.battles, 300u);
    EXPECT_EQ(r.encounter, encounter);
    EXPECT_LE(r.wins, r.battles);
    EXPECT_GE(r.decisions, r.battles);  // every battle asks at least once before it can end
    EXPECT_GE(r.turns, r.battles);      // every battle reaches turn 1
    EXPECT_TRUE(r.failures.empty()) << r.failures.front().message;
    EXPECT_DOUBLE_EQ(r.win_rate(), double(r.wins) / 300.0);
    EXPECT_DOUBLE_EQ(r.mean_turns(), double(r.turns) / 300.0);
    EXPECT_DOUBLE_EQ(r.mean_decisions(), double(r.decisions) / 300.0);
  }
}

TEST(SimSimulate, UnknownEncounterIsAnError) {
  ASSERT_NE(starter(), nullptr);
  const auto report = simulate_deckbuilder(starter(), {"no_such_encounter", 10, 1, "random"});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().message.find("no_such_encounter"), std::string::npos) << report.error().message;
}

TEST(SimSimulate, UnknownPolicyIsAnError) {
  ASSERT_NE(starter(), nullptr);
  const auto report = simulate_deckbuilder(starter(), {"w1", 10, 1, "no_such_policy"});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().message.find("no_such_policy"), std::string::npos) << report.error().message;
}

using FirstOption = test::FirstOption<deckbuilder::Policy, deckbuilder::Battle, deckbuilder::Action>;

// A policy the user writes plays a run by its name, on any thread count, and as side A or B.
TEST(SimSimulate, AUsersOwnPolicyPlaysByItsName) {
  ASSERT_NE(starter(), nullptr);
  std::atomic<std::uint64_t> chosen{0};
  SimConfig config{"w1", 200, 3, "first"};
  config.deckbuilder_policies = {{"first", [&] { return std::make_unique<FirstOption>(chosen); }}};
  const SimReport one = run(config);
  EXPECT_EQ(one.policy, "first");
  EXPECT_EQ(one.battles, 200u);
  EXPECT_EQ(one.decisions, chosen.load()) << "every decision of the run was the policy's";
  config.threads = 2;
  EXPECT_EQ(untimed(run(config)), untimed(one));
  // Side B of a pair plays what a run of it alone plays.
  config.versus_policy = "random";
  const SimReport pair = run(config);
  SimConfig random_alone{"w1", 200, 3, "random"};
  EXPECT_EQ(pair.wins, one.wins);
  EXPECT_EQ(pair.versus.wins, run(random_alone).wins);
  EXPECT_EQ(pair.versus.decisions, run(random_alone).decisions);
  EXPECT_NE(pair.versus.decisions, one.decisions) << "the two sides played different policies";
}

// Own policies that cannot be told apart, or a name that names none, are refused before the run.
TEST(SimSimulate, AUsersOwnPoliciesAreRefusedWhenTheirNamesClash) {
  ASSERT_NE(starter(), nullptr);
  std::atomic<std::uint64_t> chosen{0};
  const auto make = [&] { return std::make_unique<FirstOption>(chosen); };
  const auto refused = [&](std::vector<PolicyMaker<deckbuilder::Policy>> own, const std::string& policy) {
    SimConfig config{"w1", 10, 1, policy};
    config.deckbuilder_policies = std::move(own);
    const auto r = simulate_deckbuilder(starter(), config);
    return r.ok() ? std::string("(accepted)") : r.error().message;
  };
  EXPECT_EQ(refused({{"random", make}}, "random"), "own policy 'random': the name is a built-in policy's");
  EXPECT_EQ(refused({{"first", make}, {"first", make}}, "first"), "own policy 'first' is given twice");
  EXPECT_EQ(refused({{"First One", make}}, "random"),
            "own policy 0: the name 'First One' is not 1 to 64 characters a-z, 0-9, '_' or '-'");
  EXPECT_EQ(refused({{"first", nullptr}}, "random"), "own policy 'first' has no maker");
  EXPECT_EQ(refused({{"first", make}, {"second", make}}, "third"),
            "unknown policy 'third'; known policies: random, greedy, mcts; the run's own: first, second");
  EXPECT_EQ(refused({{"none", [] { return std::unique_ptr<deckbuilder::Policy>(); }}}, "none"),
            "own policy 'none': its maker gave no policy");
  EXPECT_EQ(chosen.load(), 0u) << "no battle was played";
}

TEST(SimSimulate, DefaultEncounterIsUsedWhenNoneIsGiven) {
  ASSERT_NE(starter(), nullptr);
  ASSERT_TRUE(starter()->pack.default_encounter.has_value());
  const std::string expected = starter()->encounters[*starter()->pack.default_encounter].id;
  const SimReport by_default = run({"", 200, 5, "random"});
  const SimReport named = run({expected, 200, 5, "random"});
  EXPECT_EQ(by_default.encounter, expected);
  EXPECT_EQ(untimed(by_default), untimed(named));
}

TEST(SimSimulate, AnEncounterOtherThanTheScenariosIsRefused) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"w1", 5, 1, "random"};
  config.scenario = nlohmann::json{{"encounter", "sludge_pair"}};
  const auto refused = simulate_deckbuilder(starter(), config);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("encounter 'w1' was asked for, but the scenario starts encounter "
                                         "'sludge_pair'"),
            std::string::npos)
      << refused.error().message;
  // The same encounter, or none, plays the scenario's.
  for (const std::string encounter : {"sludge_pair", ""}) {
    config.encounter = encounter;
    EXPECT_EQ(run(config).encounter, "sludge_pair") << encounter;
  }
}

// A scenario that names no encounter starts the one asked for, not the pack's default (w1).
TEST(SimSimulate, AScenarioWithoutAnEncounterStartsTheOneAskedFor) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"sludge_pair", 20, 1, "random"};
  config.scenario = nlohmann::json{{"energy", 5}};
  const SimReport r = run(config);
  EXPECT_EQ(r.encounter, "sludge_pair");
  EXPECT_EQ(r.enemies[*starter()->find_enemy("sludge")].battles, 40u);
  EXPECT_EQ(r.enemies[*starter()->find_enemy("gnasher")].battles, 0u);
}

TEST(SimSimulate, ParseDeckReadsIdsWithCountsAndDeckTextWritesTheShortestForm) {
  const auto deck = parse_deck("strike*2,defend,strike*1,bash*3");
  ASSERT_TRUE(deck.ok()) << deck.error().message;
  const std::vector<std::string> expected{"strike", "strike", "defend", "strike", "bash", "bash", "bash"};
  EXPECT_EQ(deck.value(), expected);
  EXPECT_EQ(deck_text(expected), "strike*2,defend,strike,bash*3");
  EXPECT_EQ(parse_deck(deck_text(expected)).value(), expected);
  EXPECT_EQ(parse_deck("strike*64").value().size(), 64u);
  EXPECT_EQ(parse_deck(" strike*2 , defend,\tstrike,bash*3 ").value(), expected);
}

TEST(SimSimulate, ParseDeckRefusesAnEmptyIdABadCountAndMoreCardsThanABattleHolds) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "item 1 has no card id"},
      {"strike,,bash", "item 2 has no card id"},
      {"strike, ,bash", "item 2 has no card id"},
      {"strike,", "item 2 has no card id"},
      {"*3", "item 1 has no card id"},
      {"strike*0", "the count in 'strike*0' must be a whole number from 1 to 64"},
      {"strike*", "the count in 'strike*'"},
      {"strike*2x", "the count in 'strike*2x'"},
      {"strike*-1", "the count in 'strike*-1'"},
      {"strike*65", "the count in 'strike*65'"},
      {"strike*40,defend*25", "more than 64 cards"},
  };
  for (const auto& [text, message] : bad) {
    const auto deck = parse_deck(text);
    ASSERT_FALSE(deck.ok()) << text;
    EXPECT_NE(deck.error().message.find(message), std::string::npos) << text << ": " << deck.error().message;
  }
}

TEST(SimSimulate, ADeckPairPlaysEachDeckOnTheSameSeeds) {
  ASSERT_NE(starter(), nullptr);
  const auto& player = starter()->players[starter()->encounters[*starter()->find_encounter("w1")].player];
  std::vector<std::string> own;
  for (const deckbuilder::CardId c : player.deck) own.push_back(starter()->cards[c].id);
  std::vector<std::string> more_bash = own;
  more_bash.push_back("bash");
  const SimConfig plain{"w1", 3000, 3, "random"};
  const SimReport a = run(plain);
  // The encounter's own deck, given as a deck, plays the same battles: the same report, which
  // names no deck.
  SimConfig given = plain;
  given.deck = own;
  EXPECT_EQ(untimed(run(given)), untimed(a));
  // The same cards in another order are another deck (another shuffle).
  std::vector<std::string> reordered = own;
  std::reverse(reordered.begin(), reordered.end());
  given.deck = reordered;
  ASSERT_NE(reordered, own);
  EXPECT_EQ(run(given).settings["deck"], deck_text(reordered));
  // Side B of the pair plays what a run of its deck alone plays; both meet the same seeds.
  SimConfig alone = plain;
  alone.deck = more_bash;
  const SimReport b_alone = run(alone);
  SimConfig pair = plain;
  pair.versus_deck = more_bash;
  for (unsigned threads : {1u, 2u}) {
    pair.threads = threads;
    const SimReport r = run(pair);
    EXPECT_EQ(r.versus_policy, "random");
    EXPECT_EQ(r.settings["versus_deck"], deck_text(more_bash));
    EXPECT_FALSE(r.settings.contains("deck"));
    EXPECT_EQ(r.wins, a.wins);
    EXPECT_EQ(r.versus.wins, b_alone.wins);
    EXPECT_EQ(r.versus.turns, b_alone.turns);
    EXPECT_EQ(r.versus.cards[*starter()->find_card("bash")].plays,
              b_alone.cards[*starter()->find_card("bash")].plays);
    EXPECT_EQ(r.paired.both_won + r.paired.only_a_won, r.wins);
    EXPECT_EQ(r.paired.both_won + r.paired.only_b_won, r.versus.wins);
    EXPECT_EQ(r.paired.both_won + r.paired.only_a_won + r.paired.only_b_won + r.paired.both_lost, r.battles);
  }
  // A deck and a policy for side B together.
  pair.threads = 1;
  pair.versus_policy = "greedy";
  EXPECT_EQ(run(pair).versus_policy, "greedy");
}

TEST(SimSimulate, ADeckOfUnknownCardsOrWithAScenarioIsRefused) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"w1", 5, 1, "random"};
  config.versus_deck = {"strike", "nope", "zap", "nope"};
  const auto unknown = simulate_deckbuilder(starter(), config);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find(
                "the versus deck names cards that pack 'starter' does not have: nope, zap"),
            std::string::npos)
      << unknown.error().message;
  config.versus_deck.clear();
  config.deck = {"strike"};
  config.scenario = nlohmann::json{{"encounter", "w1"}};
  const auto with_scenario = simulate_deckbuilder(starter(), config);
  ASSERT_FALSE(with_scenario.ok());
  EXPECT_NE(with_scenario.error().message.find("a deck does not go with a scenario"), std::string::npos)
      << with_scenario.error().message;
}

/// The starter pack with Strike dealing `damage`, as another pack (its own content hash).
std::shared_ptr<const deckbuilder::Catalog> starter_with_strike(std::int32_t damage) {
  auto pack = std::make_shared<deckbuilder::Catalog>(*starter());
  const deckbuilder::OpRange effects = pack->cards[*pack->find_card("strike")].effects;
  EXPECT_EQ(effects.end - effects.begin, 1u);
  pack->ops[effects.begin].amount = damage;
  pack->content_hash ^= 0x5157;
  return pack;
}

/// The starter pack whose damage op raises an engine error when its target has less than 15 HP.
std::shared_ptr<deckbuilder::Catalog> pack_failing_below_15_hp() {
  auto pack = std::make_shared<deckbuilder::Catalog>(*starter());
  const auto damage = static_cast<std::size_t>(
      std::find(pack->op_names.begin(), pack->op_names.end(), "damage") - pack->op_names.begin());
  EXPECT_LT(damage, pack->op_handlers.size());
  static const deckbuilder::OpHandler hit = pack->op_handlers.at(damage);
  pack->op_handlers.at(damage) = [](deckbuilder::detail::OpContext& ctx, const deckbuilder::Op& op) {
    if (ctx.to != nullptr && ctx.to->hp < 15) throw InvariantError("a test failure below 15 HP");
    hit(ctx, op);
  };
  return pack;
}

// A failed battle's actions: kept as it is played when after_battle asks for every battle's,
// else found by playing the failed battle again. Both give the same actions, which end with the
// action that raised the error; on both sides of a paired run, at every thread count.
TEST(SimSimulate, AFailedBattlesActionsAreTheSameWhetherKeptOrFoundAgain) {
  const auto pack = pack_failing_below_15_hp();
  SimConfig config{"w1", 40, 5, "random"};
  config.versus_policy = "greedy";
  std::mutex mutex;
  std::map<std::uint64_t, nlohmann::json> kept;
  config.after_battle = [&](std::uint64_t index, std::uint64_t, const nlohmann::json& actions,
                            const SimFailure* failure) -> Result<void> {
    const std::lock_guard lock(mutex);
    if (failure != nullptr) kept[index] = actions;
    return {};
  };
  const auto with_kept = simulate_deckbuilder(pack, config);
  ASSERT_TRUE(with_kept.ok()) << with_kept.error().message;
  const std::vector<SimFailure>& failures = with_kept.value().failures;
  const std::vector<SimFailure>& failures_b = with_kept.value().versus.failures;
  ASSERT_GT(failures.size(), 10u);
  ASSERT_GT(failures_b.size(), 10u);
  EXPECT_EQ(failures.size(), kept.size());
  for (const SimFailure& f : failures) {
    EXPECT_NE(f.message.find("a test failure"), std::string::npos) << f.message;
    EXPECT_EQ(f.policy, "random");
    EXPECT_FALSE(f.while_choosing);  // the random policy looks at no battle
    EXPECT_FALSE(f.actions.empty());
    EXPECT_EQ(f.actions, kept[f.index]) << "battle " << f.index;
  }
  config.after_battle = {};
  for (unsigned threads : {1u, 2u}) {
    config.threads = threads;
    const auto found_again = simulate_deckbuilder(pack, config);
    ASSERT_TRUE(found_again.ok()) << found_again.error().message;
    EXPECT_EQ(found_again.value().failures, failures) << threads << " threads";
    EXPECT_EQ(found_again.value().versus.failures, failures_b) << threads << " threads";
  }
  // Each failure's actions, submitted to its battle, end with the one that raises the error (the
  // random policy looks at no battle; the greedy policy's look ahead raises it before its pick).
  for (const SimFailure& f : failures) {
    SCOPED_TRACE(f.index);
    deckbuilder::Battle battle(pack);
    ASSERT_TRUE(battle.start_battle("w1", f.battle_seed).ok());
    for (std::size_t i = 0; i < f.actions.size(); ++i) {
      const auto action = deckbuilder::action_from_json(f.actions[i]);
      ASSERT_TRUE(action.ok());
      if (i + 1 < f.actions.size()) {
        ASSERT_TRUE(battle.submit(action.value()).ok());
      } else {
        EXPECT_THROW((void)battle.submit(action.value()), InvariantError);
      }
    }
  }
}

// An engine error the greedy policy meets in its look ahead, on a copy of the battle, is a failure
// raised while choosing: every action before it plays, and its replay ends at that choice with
// the error as `policy_error`, which the replay's check raises again by playing each option.
TEST(SimSimulate, AnEngineErrorInThePolicysSearchIsRecordedAtItsChoice) {
  const auto pack = pack_failing_below_15_hp();
  const test::TempDir dir;
  SimConfig config{"w1", 40, 5, "greedy"};
  config.after_battle = sim::replay_writer<DeckbuilderRules>(pack, "w1", nullptr, dir.path(), true);
  const auto r = simulate_deckbuilder(pack, config);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GT(r.value().failures.size(), 10u);
  for (const SimFailure& f : r.value().failures) {
    SCOPED_TRACE(f.index);
    EXPECT_TRUE(f.while_choosing);
    EXPECT_EQ(f.message, "a test failure below 15 HP");
    deckbuilder::Battle battle(pack);
    ASSERT_TRUE(battle.start_battle("w1", f.battle_seed).ok());
    for (const nlohmann::json& a : f.actions)
      ASSERT_TRUE(battle.submit(deckbuilder::action_from_json(a).value()).ok());
    ASSERT_EQ(battle.status(), Status::AwaitingDecision);

    const auto replay = read_replay(dir.path() / replay_file_name(f.index));
    ASSERT_TRUE(replay.ok()) << "no replay of a battle that broke while its policy chose";
    EXPECT_EQ(replay.value().actions.size(), f.actions.size());
    EXPECT_FALSE(replay.value().engine_error.has_value());
    EXPECT_EQ(replay.value().policy_error, f.message);
    EXPECT_EQ(replay.value().final_state_hash, battle.state_hash());
    const ReplayCheck check = check_replay<DeckbuilderRules>(pack, replay.value());
    EXPECT_EQ(check.exit_code(), 1) << check.message;
    EXPECT_NE(check.message.find("raises the recorded engine error again"), std::string::npos)
        << check.message;
    EXPECT_NE(check.message.find("play_card"), std::string::npos) << check.message;
  }
  // The report says where each was raised, and a merge reads it back.
  const nlohmann::json j = r.value().to_json();
  ASSERT_FALSE(j["errors"].empty());
  EXPECT_EQ(j["errors"][0]["while_choosing"], true);
  const auto read = report_from_document(content::JsonDocument{"report", j.dump(2), j});
  ASSERT_TRUE(read.ok()) << read.error().items().front().message;
  EXPECT_EQ(read.value().failures, r.value().failures);
}

TEST(SimSimulate, APairOfPacksPlaysEachPackOnTheSameSeeds) {
  ASSERT_NE(starter(), nullptr);
  const auto stronger = starter_with_strike(7);
  const SimConfig plain{"w1", 3000, 3, "random"};
  const SimReport a = run(plain);
  const auto b = simulate_deckbuilder(stronger, plain);
  ASSERT_TRUE(b.ok()) << b.error().message;
  for (unsigned threads : {1u, 2u}) {
    SimConfig config = plain;
    config.threads = threads;
    const auto r = simulate_deckbuilder(starter(), config, stronger);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().content_hash, starter()->content_hash);
    EXPECT_EQ(r.value().settings["versus_content_hash"], fmt::format("{:016x}", stronger->content_hash));
    EXPECT_EQ(r.value().wins, a.wins);
    EXPECT_EQ(r.value().versus.wins, b.value().wins);
    EXPECT_EQ(r.value().versus.turns, b.value().turns);
    EXPECT_GT(r.value().versus.wins, r.value().wins) << "a stronger Strike wins more";
  }
  // The same pack on both sides: the same battles, and no second hash.
  const auto same = simulate_deckbuilder(starter(), plain, starter());
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_FALSE(same.value().settings.contains("versus_content_hash"));
  EXPECT_EQ(same.value().paired.only_a_won + same.value().paired.only_b_won, 0u);
  // With a deck: side B reads it in its own pack.
  SimConfig with_deck = plain;
  with_deck.deck = {"strike", "strike", "bash"};
  const auto decked = simulate_deckbuilder(starter(), with_deck, stronger);
  ASSERT_TRUE(decked.ok()) << decked.error().message;
  EXPECT_EQ(decked.value().versus.wins, simulate_deckbuilder(stronger, with_deck).value().wins);
  // Side A's own deck, given as a deck: side B is dealt it from its pack, so it is named; with a
  // deck of side B's own, the battles are those of a run without it, and so is the report.
  const auto& player = starter()->players[starter()->encounters[*starter()->find_encounter("w1")].player];
  SimConfig own = plain;
  for (const deckbuilder::CardId c : player.deck) own.deck.push_back(starter()->cards[c].id);
  const auto dealt = simulate_deckbuilder(starter(), own, stronger);
  ASSERT_TRUE(dealt.ok()) << dealt.error().message;
  EXPECT_EQ(dealt.value().settings["deck"], deck_text(own.deck));
  SimConfig b_deck = plain;
  b_deck.versus_deck = {"strike", "strike", "bash"};
  own.versus_deck = b_deck.versus_deck;
  const auto without = simulate_deckbuilder(starter(), b_deck, stronger);
  const auto with_own = simulate_deckbuilder(starter(), own, stronger);
  ASSERT_TRUE(without.ok()) << without.error().message;
  ASSERT_TRUE(with_own.ok()) << with_own.error().message;
  EXPECT_FALSE(with_own.value().settings.contains("deck")) << with_own.value().settings.dump();
  EXPECT_EQ(untimed(with_own.value()), untimed(without.value()));
}

// A pack that adds a card: its row comes after the run's pack's, side A never plays it, and
// with the card a copy of Strike under another id in place of one Strike, the battles are the same.
TEST(SimSimulate, APairOfPacksWhereOneAddsACardGivesThatCardARowOfItsOwn) {
  ASSERT_NE(starter(), nullptr);
  const auto more_cards = test::starter_with_strike_again();
  const deckbuilder::CardId strike = *more_cards->find_card("strike");
  for (unsigned threads : {1u, 2u}) {
    SimConfig config{"w1", 3000, 4, "random"};
    config.threads = threads;
    const auto r = simulate_deckbuilder(starter(), config, more_cards);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const SimReport& report = r.value();
    ASSERT_EQ(report.card_ids.size(), starter()->cards.size() + 1);
    EXPECT_EQ(report.card_ids.back(), "strike_again");
    EXPECT_EQ(report.cards.back(), CardTally{});
    EXPECT_GT(report.versus.cards.back().plays, 0u);
    EXPECT_EQ(report.versus.cards[strike].plays + report.versus.cards.back().plays,
              report.cards[strike].plays);
    EXPECT_EQ(report.versus.wins, report.wins);
    EXPECT_EQ(report.paired.only_a_won + report.paired.only_b_won, 0u);
    EXPECT_EQ(report.versus.turns, report.turns);
  }
}

// A pack of one card: every battle plays every card of the pack, and plays it again after that
// (the count per card keeps a slot for the play after the last new card; the test build's
// address sanitizer would catch a write past it).
TEST(SimSimulate, APackWhoseEveryCardIsPlayedCountsEachPlay) {
  const std::string text = R"({
    "pack": {"id": "one_card", "name": "One card", "rules": "deckbuilder"},
    "cards": [{"id": "jab", "name": "Jab", "type": "attack", "cost": 1, "target": "enemy",
               "effects": [{"op": "damage", "amount": 3}]}],
    "enemies": [{"id": "post", "name": "Post", "hp": {"min": 30, "max": 30},
                 "moves": [{"id": "stand", "name": "Stand", "intent": "defend",
                            "effects": [{"op": "armor", "amount": 1}]}],
                 "behavior": {"kind": "sequence", "moves": ["stand"]}}],
    "players": [{"id": "boxer", "name": "Boxer", "max_hp": 10, "deck": [{"card": "jab", "count": 5}]}],
    "encounters": [{"id": "bout", "name": "Bout", "player": "boxer", "enemies": ["post"]}]
  })";
  content::Diagnostics parse;
  std::optional<content::JsonDocument> doc = content::parse_json_text("one_card.json", text, parse);
  ASSERT_TRUE(doc.has_value()) << parse.to_string();
  std::vector<content::JsonDocument> docs;
  docs.push_back(std::move(*doc));
  const deckbuilder::CatalogResult pack = deckbuilder::load_catalog(docs);
  ASSERT_TRUE(pack.ok()) << pack.error().to_string();
  const auto r = simulate_deckbuilder(pack.value(), SimConfig{"bout", 50, 2, "greedy"});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r.value().cards.size(), 1u);
  EXPECT_EQ(r.value().cards[0].battles_played, 50u);
  // Greedy plays a jab whenever it can: 3 energy a turn, 3 damage each, against 30 HP and 1
  // armor a turn: every battle plays more jabs than the pack has cards.
  EXPECT_GE(r.value().cards[0].plays, 50u * 10u);
  // Every decision is a jab or an End turn, and each turn but a won battle's last ends with one.
  EXPECT_EQ(r.value().cards[0].plays, r.value().decisions - r.value().turns + r.value().wins);
}

TEST(SimSimulate, APairOfPacksWithoutTheEncounterIsRefused) {
  ASSERT_NE(starter(), nullptr);
  auto renamed = std::make_shared<deckbuilder::Catalog>(*starter());
  for (auto& e : renamed->encounters) e.id += "_b";
  const auto missing = simulate_deckbuilder(starter(), {"w1", 5, 1, "random"}, renamed);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("the versus pack: no encounter 'w1'"), std::string::npos)
      << missing.error().message;
}

TEST(SimSimulate, OneAndTwoThreadsGiveTheSameReport) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"w1", 600, 11, "random"};
  const SimReport one = run(config);
  config.threads = 2;
  const SimReport two = run(config);
  config.threads = 3;
  const SimReport three = run(config);
  EXPECT_EQ(untimed(one), untimed(two));
  EXPECT_EQ(untimed(one), untimed(three));
}

TEST(SimSimulate, MergeOfFourShardsEqualsOneRun) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"sludge_pair", 402, 3, "random"};
  config.versus_policy = "greedy";
  const SimReport whole = run(config);
  std::vector<SimReport> shards;
  for (std::uint32_t k = 1; k <= 4; ++k) {
    config.shard_index = k;
    config.shard_count = 4;
    config.threads = k % 2 + 1;
    // Through JSON, as `report merge` reads them.
    const auto back = SimReport::from_json(run(config).to_json());
    ASSERT_TRUE(back.ok()) << back.error().message;
    shards.push_back(back.value());
  }
  EXPECT_EQ(shards[0].battles + shards[1].battles + shards[2].battles + shards[3].battles, 402u);
  const auto merged = merge_reports(shards);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(untimed(merged.value()), untimed(whole));
}

TEST(SimSimulate, ReportsCardsEnemiesAndDistributions) {
  ASSERT_NE(starter(), nullptr);
  const SimReport r = run({"w1", 400, 2, "random"});
  const nlohmann::json j = r.to_json();
  std::uint64_t battles_in_histogram = 0, turns = 0;
  for (std::size_t t = 0; t < r.turns_histogram.size(); ++t) {
    battles_in_histogram += r.turns_histogram[t];
    turns += t * r.turns_histogram[t];
  }
  EXPECT_EQ(battles_in_histogram, 400u);
  EXPECT_EQ(turns, r.turns);
  EXPECT_LE(j["turns"]["p10"].get<int>(), j["turns"]["p50"].get<int>());
  EXPECT_LE(j["turns"]["p50"].get<int>(), j["turns"]["p90"].get<int>());
  EXPECT_EQ(r.hp_left_histogram[0], r.battles - r.wins);  // a lost battle leaves 0 HP
  // W1's deck: strike, defend and bash are played; every play is counted once per battle at most.
  std::uint64_t plays = 0;
  for (const auto& card : j["cards"]) {
    plays += card["plays"].get<std::uint64_t>();
    EXPECT_LE(card["battles_played"].get<std::uint64_t>(), 400u);
    EXPECT_LE(card["wins_when_played"], card["battles_played"]);
  }
  EXPECT_GT(plays, 0u);
  EXPECT_LT(plays, r.decisions);  // end turn is a decision but not a play
  const auto strike =
      std::find_if(j["cards"].begin(), j["cards"].end(), [](auto& c) { return c["id"] == "strike"; });
  ASSERT_NE(strike, j["cards"].end());
  EXPECT_GT((*strike)["plays"].get<std::uint64_t>(), 400u);
  // The one enemy of W1 fights every battle and deals damage; the player lost HP in most battles.
  std::uint64_t enemy_battles = 0, damage = 0;
  for (const auto& e : j["enemies"]) {
    enemy_battles += e["battles"].get<std::uint64_t>();
    damage += e["damage_dealt"].get<std::uint64_t>();
  }
  EXPECT_EQ(enemy_battles, 400u);
  // W1's only damage to the player is the enemy's attacks: a won battle lost 80 - hp_left to them.
  EXPECT_GE(damage, r.wins * 80 - r.hp_left_on_wins);
  EXPECT_GT(damage, 0u);
}

TEST(SimSimulate, WithoutEnemyDamageOnlyTheDamageColumnsChange) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"sludge_pair", 200, 6, "random"};
  const SimReport counted = run(config);
  config.count_enemy_damage = false;
  const SimReport lean = run(config);
  EXPECT_FALSE(lean.enemy_damage_counted);
  EXPECT_EQ(lean.wins, counted.wins);
  EXPECT_EQ(lean.turns_histogram, counted.turns_histogram);
  EXPECT_EQ(lean.cards, counted.cards);
  ASSERT_EQ(lean.enemies.size(), counted.enemies.size());
  std::uint64_t damage = 0;
  for (std::size_t e = 0; e < lean.enemies.size(); ++e) {
    EXPECT_EQ(lean.enemies[e].battles, counted.enemies[e].battles);
    EXPECT_EQ(lean.enemies[e].damage_dealt, 0u);
    damage += counted.enemies[e].damage_dealt;
  }
  EXPECT_GT(damage, 0u);
  EXPECT_EQ(lean.to_json()["enemy_damage_counted"], false);
  // A merge never mixes the two.
  config.shard_count = 2;
  config.shard_index = 1;
  const SimReport half_lean = run(config);
  config.shard_index = 2;
  config.count_enemy_damage = true;
  const SimReport half_counted = run(config);
  const auto mixed = merge_reports({half_lean, half_counted});
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().message.find("enemy damage"), std::string::npos) << mixed.error().message;
}

TEST(SimSimulate, VersusPlaysBothPoliciesOnTheSameSeeds) {
  ASSERT_NE(starter(), nullptr);
  SimConfig config{"w1", 300, 4, "random"};
  config.versus_policy = "random";
  const SimReport r = run(config);
  // The same policy on the same seeds plays the same battles: no discordant pairs.
  EXPECT_EQ(r.versus.wins, r.wins);
  EXPECT_EQ(r.versus.turns, r.turns);
  EXPECT_EQ(r.paired.only_a_won + r.paired.only_b_won, 0u);
  EXPECT_EQ(r.paired.n(), 300u);
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["versus"]["policy"], "random");
  EXPECT_DOUBLE_EQ(j["versus"]["paired"]["difference"].get<double>(), 0.0);
}

TEST(SimSimulate, JsonHasTheDocumentedKeys) {
  ASSERT_NE(starter(), nullptr);
  const nlohmann::json j = run({"w1", 50, 1, "random"}).to_json();
  for (const char* key : {"rules",
                          "encounter",
                          "battles",
                          "seed",
                          "policy",
                          "wins",
                          "win_rate",
                          "mean_turns",
                          "decisions",
                          "mean_decisions",
                          "mean_hp_left_on_wins",
                          "errors",
                          "elapsed_s",
                          "battles_per_s",
                          "decisions_per_s",
                          "content_hash",
                          "win_rate_ci95",
                          "turns",
                          "hp_left",
                          "cards",
                          "enemies"})
    EXPECT_TRUE(j.contains(key)) << "missing key " << key << " in " << j.dump();
  EXPECT_EQ(j["rules"], "deckbuilder");
  EXPECT_EQ(j["encounter"], "w1");
  EXPECT_EQ(j["battles"], 50);
  EXPECT_EQ(j["seed"], 1);
  EXPECT_EQ(j["policy"], "random");
}

TEST(SimSimulate, ToTextNamesTheEncounterAndTheWins) {
  ASSERT_NE(starter(), nullptr);
  const SimReport r = run({"w1", 50, 1, "random"});
  const std::string text = r.to_text();
  EXPECT_NE(text.find("w1"), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("{:<28}{}\n", "wins", r.wins)), std::string::npos) << text;
}

// The text shows a string setting as it is, as the HTML page does, and other values as JSON.
TEST(SimSimulate, ToTextShowsAStringSettingWithoutItsQuotes) {
  ASSERT_NE(starter(), nullptr);
  SimReport r = run({"w1", 5, 1, "random"});
  r.settings = {{"deck", "defend*10"}, {"block_percent", 60}, {"flag", true}};
  const std::string text = r.to_text();
  EXPECT_NE(text.find(fmt::format("{:<28}{}\n", "deck", "defend*10")), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("{:<28}{}\n", "block_percent", 60)), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("{:<28}{}\n", "flag", "true")), std::string::npos) << text;
  EXPECT_EQ(text.find('"'), std::string::npos) << text;
}

TEST(SimSimulate, AScenarioWhoseEnemyHpFitsSomeRollsOnlyIsRefusedBeforeTheRun) {
  ASSERT_NE(starter(), nullptr);
  // W1's enemy rolls 40 to 44 HP: an HP of 44 fits the seeds that roll 44 only. Battle 0 of
  // seed 1 may or may not be one of them: either way nothing is played.
  SimConfig config{"", 200, 1, "random"};
  config.scenario = nlohmann::json::parse(R"({"encounter": "w1", "enemies": [{"hp": 44}]})");
  const auto refused = simulate_deckbuilder(starter(), config);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("/enemies/0/hp"), std::string::npos) << refused.error().message;
  // With the max HP given too, every battle starts from it.
  config.scenario = nlohmann::json::parse(R"({"encounter": "w1", "enemies": [{"hp": 44, "max_hp": 44}]})");
  const SimReport r = run(config);
  EXPECT_EQ(r.battles, 200u);
  EXPECT_TRUE(r.failures.empty());
}

/// The line of `text` that starts with `id` and a space, or "".
std::string line_of(const std::string& text, const std::string& id) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(id + " ", 0) == 0) return line;
  return "";
}

/// The whitespace-separated fields of `line`.
std::vector<std::string> fields_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

TEST(SimSimulate, ToTextHasACardTableAndAnEnemyTable) {
  ASSERT_NE(starter(), nullptr);
  const SimReport r = run({"sludge_pair", 300, 2, "random"});
  const std::string text = r.to_text();
  ASSERT_NE(line_of(text, "card"), "") << text;
  std::size_t listed = 0;
  for (std::size_t c = 0; c < r.cards.size(); ++c) {
    const std::string line = line_of(text, r.card_ids[c]);
    if (r.cards[c].plays == 0) {
      EXPECT_EQ(line, "") << "a card never played has no row: " << r.card_ids[c];
      continue;
    }
    ++listed;
    const std::vector<std::string> f = fields_of(line);
    ASSERT_EQ(f.size(), 5u) << line;
    EXPECT_EQ(f[1], std::to_string(r.cards[c].plays));
    EXPECT_EQ(f[2], fmt::format("{:.3f}", double(r.cards[c].plays) / double(r.battles)));
    EXPECT_EQ(f[3], std::to_string(r.cards[c].battles_played));
    EXPECT_EQ(f[4],
              fmt::format("{:.4f}", double(r.cards[c].wins_when_played) / double(r.cards[c].battles_played)));
  }
  EXPECT_GE(listed, 3u);
  const std::size_t sludge = *starter()->find_enemy("sludge");
  const std::vector<std::string> e = fields_of(line_of(text, "sludge"));
  ASSERT_EQ(e.size(), 5u) << text;
  EXPECT_EQ(e[1], std::to_string(r.enemies[sludge].battles));
  EXPECT_EQ(e[2], std::to_string(r.enemies[sludge].damage_dealt));
  EXPECT_GT(r.enemies[sludge].damage_dealt, 0u);
  EXPECT_EQ(e[4], std::to_string(r.enemies[sludge].armor_removed));
  EXPECT_EQ(text.find("not counted"), std::string::npos);

  // A paired run gives each card's plays per battle and win rate when played on both sides;
  // without the enemies' damage, the enemy table says so.
  SimConfig pair{"w1", 300, 2, "random"};
  pair.versus_deck = {"strike", "strike", "defend", "defend", "bash", "bash"};
  pair.count_enemy_damage = false;
  const SimReport p = run(pair);
  const std::string ptext = p.to_text();
  const std::size_t bash = *starter()->find_card("bash");
  const std::vector<std::string> b = fields_of(line_of(ptext, "bash"));
  ASSERT_EQ(b.size(), 5u) << ptext;
  EXPECT_EQ(b[1], fmt::format("{:.3f}", double(p.cards[bash].plays) / double(p.battles)));
  EXPECT_EQ(b[3], fmt::format("{:.3f}", double(p.versus.cards[bash].plays) / double(p.versus.battles)));
  EXPECT_NE(b[1], b[3]) << "two Bash in six cards are played more often than one in ten";
  EXPECT_NE(ptext.find("(enemy damage not counted: --no-enemy-damage)"), std::string::npos) << ptext;
}

// An id longer than the id column widens it: every row of a table, its header's too, keeps its
// columns, alone and paired.
TEST(SimSimulate, ToTextTablesWidenForALongId) {
  ASSERT_NE(starter(), nullptr);
  for (const bool paired : {false, true}) {
    SCOPED_TRACE(paired);
    SimConfig config{"sludge_pair", 60, 2, "random"};
    if (paired) config.versus_policy = "greedy";
    SimReport r = run(config);
    const std::string long_card = "a_card_whose_id_is_past_twenty_characters";
    const std::string long_enemy = "an_enemy_whose_id_is_past_twenty_characters";
    const std::size_t strike = *starter()->find_card("strike");
    r.card_ids[strike] = long_card;
    r.enemy_ids[*starter()->find_enemy("sludge")] = long_enemy;
    const std::string text = r.to_text();
    for (const auto& [header, ids] :
         {std::pair{std::string("card"),
                    std::vector<std::string>{long_card, r.card_ids[*starter()->find_card("bash")]}},
          std::pair{std::string("enemy"), std::vector<std::string>{long_enemy}}}) {
      const std::string head = line_of(text, header);
      ASSERT_NE(head, "") << text;
      for (const std::string& id : ids) {
        const std::string row = line_of(text, id);
        ASSERT_NE(row, "") << id << "\n" << text;
        EXPECT_EQ(row.size(), head.size()) << row << "\n" << head;
        EXPECT_EQ(row.find(' ', id.size()), id.size()) << row;
        EXPECT_EQ(fields_of(row).size(), fields_of(head).size()) << row;
      }
    }
  }
}

// A paired run's text gives side B's own figures under versus_ keys, an enemy row for an enemy
// only pack B has, and the side of each failed battle with the count of its actions.
TEST(SimSimulate, ToTextGivesSideBItsOwnFiguresAndEnemiesAndNamesTheSideOfAnError) {
  ASSERT_NE(starter(), nullptr);
  const auto r =
      simulate_deckbuilder(starter(), SimConfig{"w1", 60, 5, "random"}, test::starter_with_gnasher_again());
  ASSERT_TRUE(r.ok()) << r.error().message;
  SimReport p = r.value();
  std::string text = p.to_text();
  EXPECT_EQ(fields_of(line_of(text, "versus_decisions")),
            (std::vector<std::string>{"versus_decisions", std::to_string(p.versus.decisions)}))
      << text;
  EXPECT_EQ(fields_of(line_of(text, "versus_mean_turns"))[1], fmt::format("{:.4f}", p.versus.mean_turns()));
  EXPECT_NE(line_of(text, "versus_mean_hp_left_on_wins"), "");
  // Every "key value" line puts its value in one column, the longest key's included.
  for (const std::string_view key :
       {"rules", "battles", "wins", "mean_hp_left_on_wins", "versus_wins", "versus_mean_hp_left_on_wins",
        "difference", "errors", "battles_per_s"}) {
    const std::string line = line_of(text, std::string(key));
    ASSERT_GT(line.size(), 28u) << key << "\n" << text;
    EXPECT_EQ(line.substr(0, key.size()), key);
    EXPECT_EQ(line.find_first_not_of(' ', key.size()), 28u) << line;
  }
  const std::vector<std::string> again = fields_of(line_of(text, "gnasher_again"));
  ASSERT_EQ(again.size(), 7u) << text;
  EXPECT_EQ(again[1], "0");
  EXPECT_EQ(again[4], "60");
  EXPECT_EQ(fields_of(line_of(text, "gnasher"))[1], "60");
  p.battles = p.versus.battles = 61;
  p.versus.failures.push_back(
      SimFailure{60, 9, "broke", "random", nlohmann::json::array({"end_turn", "end_turn"})});
  text = p.to_text();
  EXPECT_NE(text.find("  battle 60 (side B, battle seed 9, policy random, 2 action(s), the last one raising "
                      "it): broke\n"),
            std::string::npos)
      << text;
}

// W1 is specified rule by rule in tools/w1-limit/README.md, and the starter pack's w1
// encounter follows it. The hand-coded yardstick publishes, for the uniformly random legal
// policy: win rate 0.889, 8.08 player turns and 21.9 decisions per battle. With 20,000 battles
// the standard error of the win rate is sqrt(0.889 * 0.111 / 20000) ~ 0.0022, of the mean turns
// about 0.02 and of the mean decisions about 0.06 (per-battle standard deviations near 3 and 8),
// so the bounds below are about 5 standard errors wide plus the rounding of the published figures:
// a miss means the rules differ, not bad luck.
TEST(SimSimulate, W1AgreesWithTheYardstick) {
  ASSERT_NE(starter(), nullptr);
  const SimReport r = run({"w1", 20000, 1, "random"});
  EXPECT_TRUE(r.failures.empty());
  EXPECT_NEAR(r.win_rate(), 0.889, 0.012);
  EXPECT_NEAR(r.mean_turns(), 8.08, 0.08);
  EXPECT_NEAR(r.mean_decisions(), 21.9, 0.3);
}

}  // namespace
}  // namespace battlecore::sim
