// Scenarios: a battle started from a stated position; bad overrides refused with their pointer.

#include "battlecore/deckbuilder/scenario.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "support/innate_pack.hpp"
#include "support/starter_pack.hpp"

namespace battlecore::deckbuilder {
namespace {

using nlohmann::json;
using test::starter;

Result<Battle, content::Diagnostics> start(const std::string& text, std::optional<std::uint64_t> seed = {}) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("s.json", text, diags);
  if (!doc) return diags;
  return start_scenario(starter(), *doc, seed);
}

std::string problems(const Result<Battle, content::Diagnostics>& r) {
  return r.ok() ? "" : r.error().to_string();
}

TEST(DeckbuilderScenario, OverridesReplaceTheStatedFields) {
  const auto r = start(R"({
    "format": "battlecore-scenario", "format_version": 1, "rules": "deckbuilder",
    "encounter": "sludge_pair", "seed": 12, "turn": 4, "energy": 2,
    "player": {"hp": 20, "armor": 5, "statuses": [{"status": "strength", "stacks": 2}]},
    "enemies": [{"hp": 3}, {"hp": 0, "armor": 0}],
    "draw_pile": ["defend", "bash"], "hand": ["strike", "strike"], "discard_pile": ["defend"],
    "counters": {"player_turns": 4, "attacks_this_turn": 1}
  })");
  ASSERT_TRUE(r.ok()) << problems(r);
  const Battle& b = r.value();
  const Catalog& c = *starter();
  const BattleState& s = b.state();
  EXPECT_EQ(b.phase(), Phase::PlayerPhase);
  EXPECT_EQ(s.seed, 12u);
  EXPECT_EQ(s.turn, 4u);
  EXPECT_EQ(s.energy, 2);
  EXPECT_EQ(s.player.hp, 20);
  EXPECT_EQ(s.player.armor, 5);
  EXPECT_EQ(s.player.stacks(*c.find_status("strength")), 2);
  EXPECT_EQ(s.enemies[0].unit.hp, 3);
  EXPECT_FALSE(s.enemies[1].unit.alive());
  ASSERT_EQ(s.cards.size(), 5u);
  ASSERT_EQ(s.draw_pile().size(), 2u);
  EXPECT_EQ(s.cards[s.draw_pile()[1]].def, *c.find_card("bash"));  // the last listed is on top
  ASSERT_EQ(s.hand().size(), 2u);
  EXPECT_EQ(s.cards[s.hand()[0]].def, *c.find_card("strike"));
  EXPECT_EQ(s.discard_pile().size(), 1u);
  EXPECT_TRUE(s.exhaust_pile().empty());
  EXPECT_EQ(s.player_turns, 4u);
  EXPECT_EQ(s.attacks_this_turn, 1);
  EXPECT_EQ(s.enemies_alive, 1);
}

// A scenario's listed draw pile is a position in the middle of a battle: the player knows nothing
// of its order, Innate cards on top or not, and the search re-samples all of it. A scenario that
// lists no pile keeps the piles its start dealt, and what the player knows of them.
TEST(DeckbuilderScenario, AListedDrawPileIsHiddenAndTheStartKeepsWhatItKnows) {
  const auto start_innate = [](const std::string& text) {
    content::Diagnostics diags;
    auto doc = content::parse_json_text("s.json", text, diags);
    EXPECT_TRUE(doc.has_value()) << diags.to_string();
    return start_scenario(test::innate_pack(), *doc);
  };
  const auto listed = start_innate(
      R"({ "rules": "deckbuilder", "encounter": "e", "seed": 3, "draw_pile": ["jab", "rune_a", "rune_b"], "hand": ["guard"] })");
  ASSERT_TRUE(listed.ok()) << problems(listed);
  EXPECT_EQ(listed.value().state().draw_pile().size(), 3u);
  EXPECT_EQ(listed.value().state().draw_known_from, kNothingKnownOnTop);
  EXPECT_EQ(listed.value().state().known_on_top(), 0u);
  const auto dealt = start_innate(R"({ "rules": "deckbuilder", "encounter": "e", "seed": 3, "energy": 1 })");
  ASSERT_TRUE(dealt.ok()) << problems(dealt);
  EXPECT_EQ(dealt.value().state().draw_known_from, test::kOrdinaryCards);
  EXPECT_EQ(dealt.value().state().known_on_top(), test::kRunesLeftOnTop);
}

TEST(DeckbuilderScenario, MoreEnergyThanTheListingByteHoldsStillListsExactly) {
  // Above kMaxListedCost energy the listing checks each card in full: an Unplayable card (its
  // byte kListingUnplayable, 127) is still not listed however much energy there is.
  const auto r = start(R"({
    "format": "battlecore-scenario", "format_version": 1, "rules": "deckbuilder",
    "encounter": "w1", "seed": 3, "energy": 999, "hand": ["dazed", "bash", "doubt", "defend"]
  })");
  ASSERT_TRUE(r.ok()) << problems(r);
  const Battle& b = r.value();
  ASSERT_GT(b.state().energy, kMaxListedCost);
  std::vector<std::string> listed;
  for (const Action& a : b.decision().options)
    if (a.kind == ActionKind::PlayCard) listed.push_back(b.catalog().cards[b.state().cards[a.card].def].id);
  EXPECT_EQ(listed, (std::vector<std::string>{"bash", "defend"}));
}

TEST(DeckbuilderScenario, AnEnemyThatStartsAtZeroHpIsNotCountedAlive) {
  auto r = start(R"({"encounter": "sludge_pair", "seed": 5, "energy": 1,
                     "enemies": [{"hp": 3, "armor": 0}, {"hp": 0}], "hand": ["strike"]})");
  ASSERT_TRUE(r.ok()) << problems(r);
  Battle& b = r.value();
  ASSERT_EQ(b.state().hand().size(), 1u);
  ASSERT_TRUE(b.try_play_card(b.state().hand()[0], 0).ok());
  EXPECT_TRUE(b.won()) << "the last alive enemy died, so the battle is won";
}

TEST(DeckbuilderScenario, TheSameScenarioStartsTheSameBattleAndASeedOverrideChangesIt) {
  const std::string text = R"({"encounter": "w1", "seed": 3, "player": {"hp": 30}})";
  const auto a = start(text);
  const auto b = start(text);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a.value() == b.value());
  const auto c = start(text, 4);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value().state().seed, 4u);
  EXPECT_NE(c.value().state_hash(), a.value().state_hash());
}

TEST(DeckbuilderScenario, AnUnknownCardIsRefusedWithItsPointer) {
  const auto r = start("{\"encounter\": \"w1\",\n \"hand\": [\"strike\", \"strik\"]}");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(problems(r).find("s.json:2:21: /hand/1: no card 'strik' in pack 'starter'"), std::string::npos)
      << problems(r);
}

TEST(DeckbuilderScenario, EveryBadOverrideIsListedAndNothingStarts) {
  const auto r = start(R"({"encounter": "w1", "seed": -1, "turn": 0,
    "player": {"hp": 9999, "statuses": [{"status": "nope", "stacks": 1}, {"status": "strength", "stacks": 0}]},
    "enemies": [{"hp": 1}, {"hp": 1}], "energy": "three", "colour": "red"})");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  EXPECT_NE(text.find("/seed: expected a seed: an integer in [0, 2^64), got -1"), std::string::npos) << text;
  // A bad seed stops before the battle is started: the overrides are not checked, but a key that
  // is no override at all is still reported.
  EXPECT_EQ(r.error().size(), 2u) << text;
  EXPECT_NE(text.find("/colour: unknown key 'colour'"), std::string::npos) << text;

  const auto r2 = start(R"({"encounter": "w1", "turn": 0,
    "player": {"hp": 9999, "statuses": [{"status": "nope", "stacks": 1}, {"status": "strength", "stacks": 0}]},
    "enemies": [{"hp": 1}, {"hp": 1}], "energy": "three", "colour": "red"})");
  ASSERT_FALSE(r2.ok());
  const std::string t2 = problems(r2);
  EXPECT_NE(t2.find("/turn:"), std::string::npos) << t2;
  EXPECT_NE(t2.find("/player/hp: expected HP in [1, "), std::string::npos) << t2;
  EXPECT_NE(t2.find("/player/statuses/0/status: no status 'nope'"), std::string::npos) << t2;
  EXPECT_NE(t2.find("/player/statuses/1/stacks:"), std::string::npos) << t2;
  EXPECT_NE(t2.find("/enemies: encounter 'w1' has 1 enemy; 2 are given"), std::string::npos) << t2;
  EXPECT_NE(t2.find("/energy:"), std::string::npos) << t2;
  EXPECT_NE(t2.find("unknown key 'colour'"), std::string::npos) << t2;

  // Pending extra turns stop at 9 and turns to skip at 99, as the rules stop them.
  const auto r3 = start(R"({"encounter": "w1", "counters": {"extra_turns": 10, "skipped_turns": 100}})");
  ASSERT_FALSE(r3.ok());
  const std::string t3 = problems(r3);
  EXPECT_NE(t3.find("/counters/extra_turns: expected an integer in [0, 9], got 10"), std::string::npos) << t3;
  EXPECT_NE(t3.find("/counters/skipped_turns: expected an integer in [0, 99], got 100"), std::string::npos)
      << t3;
}

TEST(DeckbuilderScenario, StacksOutsideOneTo999AndAStatusTwiceAreRefused) {
  // The rules keep stacks in 1..999 (a status at 0 is removed), so a scenario cannot start below.
  const auto r = start(R"({"encounter": "w1", "player": {"statuses": [
    {"status": "strength", "stacks": -2}, {"status": "weak", "stacks": 1000},
    {"status": "vulnerable", "stacks": 1}, {"status": "vulnerable", "stacks": 2}]}})");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  EXPECT_NE(text.find("/player/statuses/0/stacks: expected an integer in [1, 999], got -2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("/player/statuses/1/stacks:"), std::string::npos) << text;
  EXPECT_NE(text.find("/player/statuses/3/status: status 'vulnerable' is listed twice"), std::string::npos)
      << text;
  EXPECT_EQ(r.error().size(), 3u) << text;

  const auto ok =
      start(R"({"encounter": "w1", "player": {"statuses": [{"status": "strength", "stacks": 999}]}})");
  ASSERT_TRUE(ok.ok()) << problems(ok);
  EXPECT_EQ(ok.value().state().player.stacks(*ok.value().catalog().find_status("strength")), 999);
}

TEST(DeckbuilderScenario, HpAboveMaxAndAHandTooBigAreRefused) {
  const auto r = start(R"({"encounter": "w1", "enemies": [{"hp": 500}],
    "hand": ["strike","strike","strike","strike","strike","strike","strike","strike","strike","strike","strike"]})");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  EXPECT_NE(text.find("/enemies/0/hp: expected HP in [0, "), std::string::npos) << text;
  EXPECT_NE(text.find("/hand: 11 cards in hand; the hand holds at most 10"), std::string::npos) << text;
}

TEST(DeckbuilderScenario, AnotherFormatVersionOrRuleSetIsRefused) {
  const auto r = start(R"({"format_version": 2, "rules": "clash", "encounter": "nowhere"})");
  ASSERT_FALSE(r.ok());
  const std::string text = problems(r);
  EXPECT_NE(text.find("/format_version: scenario format version 2 is not supported"), std::string::npos)
      << text;
  EXPECT_NE(text.find("/rules: the scenario is of rule set 'clash'"), std::string::npos) << text;
  EXPECT_NE(text.find("/encounter: no encounter 'nowhere'"), std::string::npos) << text;
}

content::JsonDocument document(const std::string& text) {
  content::Diagnostics diags;
  auto doc = content::parse_json_text("s.json", text, diags);
  EXPECT_TRUE(doc.has_value()) << diags.to_string();
  return doc.value_or(content::JsonDocument{});
}

/// Plays `b` to its end with the random policy.
void play_out(Battle& b, std::uint64_t seed) {
  RandomPolicy policy;
  policy.reset(seed);
  while (b.status() == Status::AwaitingDecision) {
    const std::vector<Action> options = b.decision().options;
    ASSERT_TRUE(b.submit(options[policy.pick(options.size())]).ok());
  }
}

TEST(DeckbuilderScenario, AScenarioReadOnceStartsForEachSeedTheBattleTheDocumentStarts) {
  // The overrides of every kind; a max HP without an HP; enemies whose HP is rolled per seed.
  for (const std::string text : {
           R"({"encounter": "sludge_pair", "turn": 4, "energy": 2,
               "player": {"hp": 20, "armor": 5, "statuses": [{"status": "strength", "stacks": 2}]},
               "enemies": [{"hp": 3}, {"hp": 0, "armor": 0}],
               "draw_pile": ["defend", "bash"], "hand": ["strike", "strike"], "discard_pile": ["defend"],
               "counters": {"player_turns": 4, "attacks_this_turn": 1, "extra_turns": 1, "skipped_turns": 0}})",
           R"({"encounter": "w1", "player": {"max_hp": 90}, "enemies": [{"armor": 7,
               "statuses": [{"status": "vulnerable", "stacks": 2}]}]})",
           R"({"encounter": "w1", "seed": 9})"}) {
    const content::JsonDocument doc = document(text);
    const auto read = ScenarioStart::read(starter(), doc);
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    const ScenarioStart& scenario = read.value();
    EXPECT_EQ(scenario.encounter(), start(text).value().state().encounter);
    EXPECT_EQ(scenario.fits_only_some_seeds(), "") << text;
    // One battle started again and again, with the event log and the history on, as a host's.
    Battle battle(starter());
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      ASSERT_TRUE(scenario.start(battle, seed)) << text << " seed " << seed;
      const auto expected = start(text, seed);
      ASSERT_TRUE(expected.ok()) << problems(expected);
      ASSERT_TRUE(battle == expected.value()) << text << " seed " << seed;
      EXPECT_EQ(battle.state_hash(), expected.value().state_hash());
      play_out(battle, seed);
    }
  }
}

TEST(DeckbuilderScenario, AScenarioReadOnceRefusesExactlyTheSeedsTheDocumentRefuses) {
  // W1's enemy rolls 40 to 44 HP: an HP of 42 fits some seeds and not others.
  const std::string text = R"({"encounter": "w1", "seed": 1, "enemies": [{"hp": 42}]})";
  const content::JsonDocument doc = document(text);
  std::optional<std::uint64_t> fits;
  for (std::uint64_t seed = 1; seed <= 60 && !fits; ++seed)
    if (start(text, seed).ok()) fits = seed;
  ASSERT_TRUE(fits.has_value());
  const auto read = ScenarioStart::read(starter(), doc, fits);
  ASSERT_TRUE(read.ok()) << read.error().to_string();
  EXPECT_EQ(read.value().seed(), *fits);
  Battle battle(starter(), BattleOptions{.event_log = false, .record_history = false});
  int refused = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto expected = start(text, seed);
    const bool started = read.value().start(battle, seed);
    ASSERT_EQ(started, expected.ok()) << "seed " << seed << ": " << problems(expected);
    if (!started) {
      ++refused;
      EXPECT_NE(problems(expected).find("/enemies/0/hp: expected HP in [0, "), std::string::npos);
      EXPECT_FALSE(battle.is_battle_active()) << "a start that does not fit leaves no battle in progress";
      ASSERT_TRUE(battle.start_battle("w1", seed).ok());
    }
    play_out(battle, seed);
  }
  EXPECT_GT(refused, 0);
  EXPECT_LT(refused, 60);
  EXPECT_EQ(read.value().fits_only_some_seeds(),
            "/enemies/0/hp: enemy 'gnasher' rolls a max HP of 40 to 44, so an HP of 42 fits some seeds only; "
            "give \"max_hp\" too, or an HP of at most 40");
}

TEST(DeckbuilderScenario, AnEnemyHpOrMaxHpThatFitsSomeRollsOnlyIsNamed) {
  // W1's enemy rolls 40 to 44 HP. Each scenario is read with a seed it fits; whether every seed
  // fits is then checked against start() over many seeds.
  const std::pair<std::string, bool> cases[] = {
      {R"({"encounter": "w1", "enemies": [{"hp": 40}]})", true},
      {R"({"encounter": "w1", "enemies": [{"hp": 41}]})", false},
      {R"({"encounter": "w1", "enemies": [{"max_hp": 44}]})", true},
      {R"({"encounter": "w1", "enemies": [{"max_hp": 43}]})", false},
      {R"({"encounter": "w1", "enemies": [{"max_hp": 50, "hp": 45}]})", true},
      {R"({"encounter": "w1", "enemies": [{"armor": 3}]})", true},
  };
  for (const auto& [text, every_seed] : cases) {
    std::optional<std::uint64_t> fits;
    for (std::uint64_t seed = 1; seed <= 200 && !fits; ++seed)
      if (start(text, seed).ok()) fits = seed;
    ASSERT_TRUE(fits.has_value()) << text;
    const auto read = ScenarioStart::read(starter(), document(text), fits);
    ASSERT_TRUE(read.ok()) << text;
    const std::string unfit = read.value().fits_only_some_seeds();
    EXPECT_EQ(unfit.empty(), every_seed) << text << ": " << unfit;
    bool all_started = true;
    Battle battle(starter(), BattleOptions{.event_log = false, .record_history = false});
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      all_started = read.value().start(battle, seed) && all_started;
      if (battle.is_battle_active()) play_out(battle, seed);
    }
    EXPECT_EQ(all_started, every_seed) << text;
  }
}

/// A scenario document of random overrides, in range or not (the starter pack's ids, and some
/// that are not), from `rng`.
json random_scenario(Rng& rng, const Catalog& c) {
  const auto chance = [&](std::uint32_t percent) { return rng.below(100) < percent; };
  const auto number = [&](std::int32_t lo, std::int32_t hi) {
    return lo + static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  const auto card = [&]() -> json {
    return chance(3) ? json("nope") : json(c.cards[rng.below(static_cast<std::uint32_t>(c.cards.size()))].id);
  };
  // HP and max HP around `lo` to `hi` (an enemy's roll), or anywhere up to `hi` + 10.
  const auto unit = [&](std::int32_t lo, std::int32_t hi) {
    const auto hp = [&] { return chance(50) ? number(lo - 1, hi + 1) : number(-1, hi + 10); };
    json u = json::object();
    if (chance(50)) u["hp"] = hp();
    if (chance(25)) u["max_hp"] = hp();
    if (chance(30)) u["armor"] = number(-1, 20);
    if (chance(25)) {
      u["statuses"] = json::array();
      for (std::int32_t i = number(0, 3); i > 0; --i)
        u["statuses"].push_back(
            {{"status", c.statuses[rng.below(static_cast<std::uint32_t>(c.statuses.size()))].id},
             {"stacks", number(0, 12)}});
    }
    return u;
  };
  const EncounterDef& encounter = c.encounters[rng.below(static_cast<std::uint32_t>(c.encounters.size()))];
  json doc = {{"encounter", encounter.id}};
  if (chance(30)) doc["turn"] = number(0, 12);
  if (chance(30)) doc["energy"] = number(-1, 12);
  if (chance(50)) doc["player"] = unit(60, 90);
  if (chance(60)) {
    doc["enemies"] = json::array();
    for (std::size_t i = 0, n = rng.below(4); i < n; ++i) {
      const EnemyDef* e = i < encounter.enemies.size() ? &c.enemies[encounter.enemies[i]] : nullptr;
      doc["enemies"].push_back(e != nullptr ? unit(e->hp_min, e->hp_max) : unit(10, 40));
    }
  }
  for (const char* pile : {"draw_pile", "hand", "discard_pile", "exhaust_pile"})
    if (chance(25)) {
      doc[pile] = json::array();
      for (std::int32_t i = number(0, 11); i > 0; --i) doc[pile].push_back(card());
    }
  if (chance(20)) doc["counters"] = {{"player_turns", number(0, 6)}, {"extra_turns", number(0, 2)}};
  return doc;
}

TEST(DeckbuilderScenario, RandomScenariosReadOnceStartWhatTheDocumentStartsForEverySeed) {
  Rng rng = Rng::from_seed(2026);
  int read_ok = 0, fit_some = 0;
  for (int n = 0; n < 300; ++n) {
    const json scenario = random_scenario(rng, *starter());
    const std::string text = scenario.dump();
    const content::JsonDocument doc = document(text);
    const std::uint64_t read_seed = 1 + rng.below(50);
    const auto read = ScenarioStart::read(starter(), doc, read_seed);
    const auto direct = start_scenario(starter(), doc, read_seed);
    ASSERT_EQ(read.ok(), direct.ok()) << text;
    if (!read.ok()) {
      EXPECT_EQ(read.error().to_string(), direct.error().to_string()) << text;
      continue;
    }
    ++read_ok;
    const bool every_seed = read.value().fits_only_some_seeds().empty();
    fit_some += every_seed ? 0 : 1;
    Battle battle(starter());
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const auto expected = start_scenario(starter(), doc, seed);
      ASSERT_EQ(read.value().start(battle, seed), expected.ok()) << text << " seed " << seed;
      if (every_seed) {
        EXPECT_TRUE(expected.ok()) << text << " seed " << seed << ": " << problems(expected);
      }
      if (!expected.ok()) continue;
      ASSERT_TRUE(battle == expected.value()) << text << " seed " << seed;
      play_out(battle, seed);
    }
  }
  // Both outcomes are reached often enough to mean something.
  EXPECT_GT(read_ok, 30);
  EXPECT_LT(read_ok, 300);
  EXPECT_GT(fit_some, 0) << read_ok << " read";
}

TEST(DeckbuilderScenario, AScenarioReadOnceDoesNotStartABattleInProgressAndReadsBadDocumentsAsStartDoes) {
  const content::JsonDocument doc = document(R"({"encounter": "w1", "player": {"hp": 30}})");
  const auto read = ScenarioStart::read(starter(), doc);
  ASSERT_TRUE(read.ok());
  Battle battle(starter());
  ASSERT_TRUE(read.value().start(battle, 2));
  EXPECT_FALSE(read.value().start(battle, 3)) << "the battle of seed 2 is still in progress";
  EXPECT_EQ(battle.state().seed, 2u);

  const std::string bad = R"({"encounter": "w1", "turn": 0, "player": {"hp": 9999}, "colour": "red"})";
  const auto refused = ScenarioStart::read(starter(), document(bad));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().to_string(), problems(start(bad)));
  EXPECT_EQ(refused.error().size(), 3u) << refused.error().to_string();
}

}  // namespace
}  // namespace battlecore::deckbuilder
