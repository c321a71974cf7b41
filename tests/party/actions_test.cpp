// Actions as JSON, and the JSON views front ends read.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "battlecore/party/view.hpp"
#include "party_support.hpp"

namespace battlecore::party {
namespace {

TEST(PartyActions, EveryKindRoundTripsThroughJson) {
  for (const Action& a :
       {Action::attack(2), Action::skill(1, 0), Action::skill(3, -1), Action::item(4, 1), Action::relay(2),
        Action::do_nothing(), Action::flee(), Action::swap(), Action::deselect(), Action::companion_attack(1),
        Action::companion_special(0), Action::companion_pass(), Action::block(BlockLevel::None),
        Action::block(BlockLevel::SuperBlock)}) {
    const nlohmann::json j = action_to_json(a);
    const auto back = action_from_json(j);
    ASSERT_TRUE(back.ok()) << j.dump() << ": " << back.error().message;
    EXPECT_EQ(back.value(), a) << j.dump();
  }
  EXPECT_EQ(action_to_json(Action::skill(1, 0)),
            (nlohmann::json{{"type", "skill"}, {"index", 1}, {"target", 0}}));
  EXPECT_EQ(action_to_json(Action::flee()), (nlohmann::json{{"type", "flee"}}));
}

TEST(PartyActions, BadJsonSaysWhatIsWrong) {
  const std::pair<nlohmann::json, const char*> cases[] = {
      {nlohmann::json::array(), "JSON object"},
      {{{"kind", "attack"}}, "needs \"type\""},
      {{{"type", "dance"}}, "unknown action type 'dance'"},
      {{{"type", "attack"}}, "needs \"target\""},
      {{{"type", "skill"}, {"target", 0}}, "needs \"index\""},
      {{{"type", "block"}, {"index", 300}}, "[0, 255]"},
      {{{"type", "flee"}, {"bogus", 1}}, "unknown key 'bogus'; allowed keys: type"},
      {{{"type", "attack"}, {"target", 0}, {"index", 1}}, "unknown key 'index'; allowed keys: type, target"},
      {{{"type", "skill"}, {"index", 0}, {"target", 0}, {"bogus", 1}},
       "unknown key 'bogus'; allowed keys: type, index, target"},
  };
  for (const auto& [j, words] : cases) {
    const auto r = action_from_json(j);
    ASSERT_FALSE(r.ok()) << j.dump();
    EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().message;
  }
}

TEST(PartyViews, StateViewShowsWhatAFrontEndNeeds) {
  Battle b = test::start("helpers");
  const nlohmann::json j = state_view(b);
  EXPECT_EQ(j["phase"], "PlayerPhase");
  EXPECT_EQ(j["decision"], "member_turn");
  EXPECT_EQ(j["selected"], "ann");
  EXPECT_EQ(j["tp"], 10);
  ASSERT_EQ(j["members"].size(), 3u);
  EXPECT_EQ(j["members"][0]["id"], "ann");
  EXPECT_EQ(j["members"][0]["counter"], 0);
  EXPECT_EQ(j["enemies"][0]["id"], "dummy");
  EXPECT_EQ(j["companion"]["id"], "pet");
  EXPECT_EQ(j["ally"]["id"], "helper");
  EXPECT_EQ(j["select_cycle"], (nlohmann::json{0, -1}));
  const nlohmann::json d = decision_view(b);
  EXPECT_EQ(d["kind"], "member_turn");
  EXPECT_EQ(d["who"]["actor"], 0);
  EXPECT_EQ(d["options"].size(), b.decision().options.size());
  EXPECT_EQ(d["options"][0]["label"], "Ann: attack Dummy (enemy 0)");
  EXPECT_NE(render_text(b).find("Ann"), std::string::npos);
}

TEST(PartyViews, EventsReadAsJson) {
  Battle b = test::start("trio");
  test::submit_ok(b, Action::attack(0));
  bool saw_damage = false;
  for (const Event& e : b.events().log()) {
    const nlohmann::json j = event_to_json(e, b.catalog());
    EXPECT_EQ(j["type"], event_type_name(e.type));
    if (e.type == EventType::Damaged) {
      saw_damage = true;
      EXPECT_EQ(j["amount"], 3);  // 2 + 1 for the front member
      EXPECT_EQ(j["source"], "member 0");
    }
  }
  EXPECT_TRUE(saw_damage);
}

}  // namespace
}  // namespace battlecore::party
