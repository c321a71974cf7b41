#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/deckbuilder/load.hpp"
#include "support/json_list.hpp"
#include "support/temp_dir.hpp"

namespace battlecore::deckbuilder {
namespace {

namespace fs = std::filesystem;
using content::Diagnostic;
using content::Diagnostics;

const fs::path kStarter = fs::path(BATTLECORE_DATA_DIR) / "deckbuilder" / "starter";
const fs::path kBad = fs::path(BATTLECORE_TEST_DATA_DIR) / "bad" / "deckbuilder";

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// The diagnostics of a load that must fail; a catalog is never handed out with them.
Diagnostics refused(const CatalogResult& r) {
  EXPECT_FALSE(r.ok()) << "the content was accepted";
  if (r.ok()) return {};
  EXPECT_FALSE(r.error().empty()) << "refused without a single diagnostic";
  return r.error();
}

/// Loads one in-memory content file (which must be valid JSON).
CatalogResult load_text(std::string_view text, const std::string& file = "bad.json") {
  Diagnostics parse;
  std::optional<content::JsonDocument> doc = content::parse_json_text(file, std::string(text), parse);
  EXPECT_TRUE(doc.has_value() && parse.empty()) << parse.to_string();
  if (!doc) return parse;
  std::vector<content::JsonDocument> docs;
  docs.push_back(std::move(*doc));
  return load_catalog(docs);
}

/// Loads one in-memory content file (which must be valid JSON) and expects it refused.
Diagnostics refused_text(std::string_view text, const std::string& file = "bad.json") {
  return refused(load_text(text, file));
}

/// The one diagnostic at `pointer`; fails when there is none or more than one.
std::optional<Diagnostic> at(const Diagnostics& diags, std::string_view pointer) {
  std::optional<Diagnostic> found;
  int n = 0;
  for (const Diagnostic& d : diags.items())
    if (d.pointer == pointer) {
      found = d;
      ++n;
    }
  EXPECT_EQ(n, 1) << "diagnostics at " << pointer << " in:\n" << diags.to_string();
  return found;
}

/// Expects a diagnostic at `pointer`, with a position, whose message contains each part.
void expect_diagnostic(const Diagnostics& diags, std::string_view pointer,
                       std::initializer_list<std::string_view> message_parts,
                       std::string_view file = "bad.json") {
  SCOPED_TRACE(std::string(pointer));
  const std::optional<Diagnostic> d = at(diags, pointer);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->file, file);
  EXPECT_GT(d->line, 0);
  EXPECT_GT(d->column, 0);
  for (std::string_view part : message_parts) EXPECT_TRUE(contains(d->message, part)) << d->message;
}

// A rat and a hero around which the bad cases below are built; on its own it loads.
constexpr std::string_view kGoodBits = R"(
  "cards": [{ "id": "jab", "type": "attack", "cost": 1, "target": "enemy",
              "effects": [{ "op": "damage", "amount": 3 }] }],
  "players": [{ "id": "hero", "max_hp": 20, "deck": [{ "card": "jab", "count": 5 }] }]
)";

std::string with_good_bits(std::string_view rest) {
  return "{" + std::string(kGoodBits) + (rest.empty() ? "" : ",") + std::string(rest) + "}";
}

/// A card of no cost and no target whose effects are `effects`.
std::string card(std::string_view id, std::string_view effects) {
  return R"({"id": ")" + std::string(id) +
         R"(", "type": "skill", "cost": 0, "target": "none", "effects": [)" + std::string(effects) + "]}";
}

// --- good content ----------------------------------------------------------------------------

/// Every op the engine registers, in registration order (Op::code).
const std::vector<std::string> kAllOps = {
    "damage",           "armor",          "draw",     "discard",      "exhaust",
    "gain_energy",      "heal",           "lose_hp",  "apply_status", "add_card",
    "cost_rule",        "delayed",        "hook",     "choice",       "conditional",
    "repeat",           "for_each_enemy", "end_turn", "extra_turn",   "skip_turns",
    "put_on_draw_pile", "put_in_hand",    "scry",     "upgrade"};

TEST(DeckbuilderCatalogLoader, StarterPackLoadsWithNoDiagnostics) {
  const CatalogResult r = load_catalog(kStarter);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Catalog& c = *r.value();
  EXPECT_EQ(c.pack.id, "starter");
  // The pack grows (its *_full.json files); the original content stays, by id.
  for (std::string_view card : {"strike", "defend", "bash", "quick_study", "cleave"})
    EXPECT_TRUE(c.find_card(card).has_value()) << card;
  for (std::string_view status : {"vulnerable", "strength", "weak"})
    EXPECT_TRUE(c.find_status(status).has_value()) << status;
  for (std::string_view enemy : {"gnasher", "sludge"}) EXPECT_TRUE(c.find_enemy(enemy).has_value()) << enemy;
  for (std::string_view player : {"warden", "warden_plus"})
    EXPECT_TRUE(c.find_player(player).has_value()) << player;
  for (std::string_view encounter : {"w1", "sludge_pair"})
    EXPECT_TRUE(c.find_encounter(encounter).has_value()) << encounter;
  EXPECT_GE(c.cards.size(), 5u);
  EXPECT_GE(c.statuses.size(), 3u);
  EXPECT_GE(c.enemies.size(), 2u);
  EXPECT_GE(c.players.size(), 2u);
  EXPECT_GE(c.encounters.size(), 2u);
  ASSERT_TRUE(c.pack.default_encounter.has_value());
  EXPECT_EQ(c.encounters[*c.pack.default_encounter].id, "w1");
  // Every registered op is in the catalog's table, whether the pack uses it or not.
  EXPECT_EQ(c.op_names, kAllOps);
  EXPECT_EQ(c.op_handlers.size(), c.op_names.size());
  // An upgraded card is a card of its own, "<id>+", pointing nowhere further.
  for (const CardDef& card : c.cards) {
    if (!card.upgrade) continue;
    SCOPED_TRACE(card.id);
    ASSERT_LT(*card.upgrade, c.cards.size());
    EXPECT_EQ(c.cards[*card.upgrade].id, card.id + "+");
    EXPECT_EQ(c.find_card(card.id + "+"), card.upgrade);
  }
}

TEST(DeckbuilderCatalogLoader, TheSameContentHashesTheSame) {
  const CatalogResult a = load_catalog(kStarter);
  const CatalogResult b = load_catalog(kStarter);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value()->content_hash, b.value()->content_hash);
  EXPECT_NE(a.value()->content_hash, 0u);
}

TEST(DeckbuilderCatalogLoader, TheGoodBitsLoad) {
  const CatalogResult r = load_text(with_good_bits(""), "good.json");
  EXPECT_TRUE(r.ok()) << r.error().to_string();
}

// --- every problem of a file, listed ---------------------------------------------------------

TEST(DeckbuilderCatalogLoader, WrongTypeUnknownKeyAndDanglingIdAreAllReported) {
  const fs::path file = kBad / "wrong_type_unknown_key_dangling.json";
  const Diagnostics diags = refused(load_catalog(file));
  EXPECT_EQ(diags.size(), 3u) << diags.to_string();

  const std::optional<Diagnostic> cost = at(diags, "/cards/0/cost");
  ASSERT_TRUE(cost.has_value());
  EXPECT_EQ(cost->file, file.string());
  EXPECT_EQ(cost->line, 6);
  EXPECT_EQ(cost->column, 15);
  EXPECT_EQ(cost->message, "expected an integer in [0, 9] or \"x\", got '1'");

  const std::optional<Diagnostic> colour = at(diags, "/cards/1/colour");
  ASSERT_TRUE(colour.has_value());
  EXPECT_EQ(colour->file, file.string());
  EXPECT_EQ(colour->line, 15);
  EXPECT_EQ(colour->column, 17);
  EXPECT_EQ(colour->message,
            "unknown key 'colour'; allowed keys: id, name, text, type, cost, target, keywords, effects, "
            "in_hand_turn_start, hooks, upgrade");

  const std::optional<Diagnostic> smite = at(diags, "/players/0/deck/1/card");
  ASSERT_TRUE(smite.has_value());
  EXPECT_EQ(smite->file, file.string());
  EXPECT_EQ(smite->line, 25);
  EXPECT_EQ(smite->column, 19);
  EXPECT_TRUE(contains(smite->message, "unknown card 'smite'")) << smite->message;
  EXPECT_TRUE(contains(smite->message, "expected the id of a card")) << smite->message;

  // The printed form carries all of it.
  const std::string text = diags.to_string();
  EXPECT_TRUE(contains(text, file.string() + ":6:15: /cards/0/cost: expected an integer")) << text;
}

TEST(DeckbuilderCatalogLoader, UnknownTopLevelSectionListsTheSections) {
  const Diagnostics diags = refused_text(with_good_bits(R"("monsters": [])"));
  expect_diagnostic(
      diags, "/monsters",
      {"unknown key 'monsters'", "allowed keys: pack, cards, statuses, enemies, players, encounters"});
}

// --- effects ---------------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, UnknownOpListsTheKnownOps) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "smash", "amount": 3 }] }] })");
  // Every registered op (kAllOps, which the starter pack's op names are compared with), in
  // order, and nothing after: the message ends with the list.
  const std::string known = fmt::format("expected one of: {}", fmt::join(kAllOps, ", "));
  expect_diagnostic(diags, "/cards/0/effects/0/op", {"unknown op 'smash'", known});
  const std::optional<Diagnostic> d = at(diags, "/cards/0/effects/0/op");
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->message.ends_with(known)) << d->message;
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, OpMissingARequiredParameter) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "damage" }, { "op": "apply_status", "amount": 1 }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0", {"missing required key 'amount'", "an integer in [0, 999]"});
  expect_diagnostic(diags, "/cards/0/effects/1", {"missing required key 'status'", "a string"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, OpParameterOfTheWrongTypeOrOutOfRange) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "damage", "amount": "six" }, { "op": "damage", "amount": 6, "times": 0 },
                { "op": "damage", "amount": 6, "target": "everyone" }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/amount", {"expected an integer in [0, 999], got a string"});
  expect_diagnostic(diags, "/cards/0/effects/1/times", {"expected an integer in [1, 99], got 0"});
  expect_diagnostic(diags, "/cards/0/effects/2/target",
                    {"unknown value 'everyone'", "chosen, self, all_enemies, random_enemy"});
}

TEST(DeckbuilderCatalogLoader, UnknownParameterOfAnOpListsItsParameters) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "damage", "amount": 6, "hits": 2 }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/hits",
                    {"unknown key 'hits'", "allowed keys: op, amount, times, target"});
}

TEST(DeckbuilderCatalogLoader, StatusThatDoesNotExist) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "skill", "cost": 1, "target": "enemy",
    "effects": [{ "op": "apply_status", "status": "poison", "amount": 2 }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/status",
                    {"unknown status 'poison'", "expected the id of a status defined in the pack"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ChosenTargetEffectOnACardWithTargetNone) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "none",
    "effects": [{ "op": "damage", "amount": 3 }] }] })");
  expect_diagnostic(diags, "/cards/0/target",
                    {"card 'zap'", "aimed at the chosen target", "needs \"target\": \"enemy\""});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, DrawInAnEnemyMove) {
  const Diagnostics diags = refused_text(with_good_bits(R"("enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "peek", "intent": "unknown", "effects": [{ "op": "draw", "amount": 1 }] }],
    "behavior": { "kind": "sequence", "moves": ["peek"] } }])"));
  // Statuses and delayed effects may draw (they run for the player); an enemy has no hand.
  expect_diagnostic(
      diags, "/enemies/0/moves/0/effects/0",
      {"op 'draw' is only allowed in card, status and deferred effects", "enemies have no hand"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, OpsThatAskThePlayerAreForCardsOnly) {
  const Diagnostics diags = refused_text(with_good_bits(R"("enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "trick", "intent": "unknown", "effects": [
      { "op": "choice", "options": [{ "label": "A", "effects": [] }, { "label": "B", "effects": [] }] },
      { "op": "cost_rule", "scope": "hand", "change": 1 },
      { "op": "discard", "amount": 1, "mode": "random" },
      { "op": "put_on_draw_pile", "amount": 1, "mode": "random" },
      { "op": "put_in_hand", "amount": 1, "mode": "random" },
      { "op": "scry", "amount": 2 },
      { "op": "upgrade", "mode": "all" }] }],
    "behavior": { "kind": "sequence", "moves": ["trick"] } }],
    "statuses": [{ "id": "muddle", "timings": { "turn_start": [
      { "op": "put_on_draw_pile", "amount": 1, "mode": "choose" },
      { "op": "put_on_draw_pile", "amount": 0, "mode": "random" },
      { "op": "put_on_draw_pile", "amount": 1, "mode": "random" },
      { "op": "put_on_draw_pile", "amount": 1, "mode": "random", "from": "discard" },
      { "op": "put_on_draw_pile", "amount": 1, "mode": "random", "from": "deck" },
      { "op": "put_in_hand", "amount": 1, "mode": "choose", "from": "exhaust" },
      { "op": "put_in_hand", "amount": 2, "mode": "random", "from": "exhaust" },
      { "op": "put_in_hand", "amount": 1, "mode": "random", "from": "hand" },
      { "op": "scry", "amount": 1 },
      { "op": "put_in_hand", "amount": 1, "mode": "random", "from": "draw" },
      { "op": "put_in_hand", "amount": 1, "mode": "choose", "from": "draw" },
      { "op": "discard", "amount": 1, "mode": "random", "card_type": "curse" },
      { "op": "exhaust", "amount": 1, "mode": "random", "card_type": "spell" },
      { "op": "exhaust", "mode": "all", "card_type": "curse" },
      { "op": "discard", "mode": "all", "amount": 2 },
      { "op": "put_in_hand", "mode": "all", "from": "draw" },
      { "op": "exhaust", "mode": "all", "count": 2 },
      { "op": "discard", "mode": "all", "card_type": ["status", "curse"] },
      { "op": "discard", "mode": "all", "card_type": ["status", "spell", 3, "status"] },
      { "op": "discard", "mode": "all", "card_type": [] },
      { "op": "discard", "mode": "all", "card_type": 2 },
      { "op": "upgrade", "amount": 1, "mode": "choose", "from": "draw" },
      { "op": "upgrade", "amount": 2, "mode": "random", "from": "exhaust" },
      { "op": "upgrade", "mode": "all", "from": "discard", "card_type": "attack" }] } }])"));
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/0", {"op 'choice' is only allowed in card effects"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/1",
                    {"op 'cost_rule' is only allowed in card effects"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/2",
                    {"op 'discard' is only allowed in", "enemies have no hand"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/3",
                    {"op 'put_on_draw_pile' is only allowed in", "enemies have no hand"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/4",
                    {"op 'put_in_hand' is only allowed in", "enemies have no hand"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/5", {"op 'scry' is only allowed in card effects"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/6",
                    {"op 'upgrade' is only allowed in", "enemies have no hand"});
  // A status may put cards on top at random, not ask the player which.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0",
                    {"op 'put_on_draw_pile with mode choose' is only allowed in card effects"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/1/amount",
                    {"expected an integer in [1, 10]", "got 0"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/4/from", {"'deck'", "hand, discard"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/5",
                    {"op 'put_in_hand with mode choose' is only allowed in card effects"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/7/from", {"'hand'", "discard, exhaust, draw"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/8", {"op 'scry' is only allowed in card effects"});
  // From the draw pile at random, as from the others; the choice only in card effects.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/10",
                    {"op 'put_in_hand with mode choose' is only allowed in card effects"});
  // A card type, of those cards have, or nothing.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/12/card_type",
                    {"'spell'", "attack, skill, power, status, curse"});
  // All of them, as at random: never a pause, and no amount.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/14/amount",
                    {"mode all takes every card it may: expected no amount"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/16/count",
                    {"unknown key 'count'; allowed keys: op, mode, amount, card_type"});
  // Or a non-empty list of them, each once; each bad element is reported.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/18/card_type/1",
                    {"unknown value 'spell'", "attack, skill, power, status, curse"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/18/card_type/2",
                    {"expected a string", "got an integer"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/18/card_type/3", {"'status' is listed twice"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/19/card_type",
                    {"expected a string or a non-empty array of strings", "got an empty array"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/20/card_type",
                    {"expected a string or a non-empty array of strings", "got an integer"});
  // A status may upgrade cards at random or all of them, of the hand, the draw or the discard pile.
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/21",
                    {"op 'upgrade with mode choose' is only allowed in card effects"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/22/from", {"'exhaust'", "hand, draw, discard"});
  EXPECT_EQ(diags.size(), 24u) << diags.to_string();
  const Diagnostics far =
      refused_text(R"({"cards": [)" + card("glimpse", R"({"op": "scry", "amount": 11})") + "]}");
  expect_diagnostic(far, "/cards/0/effects/0/amount", {"expected an integer in [1, 10]", "got 11"});
  EXPECT_EQ(far.size(), 1u) << far.to_string();
}

TEST(DeckbuilderCatalogLoader, CountedAmountsAreChecked) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "damage", "amount": { "count": "hand", "per": 2, "plus": 1 } },
                { "op": "damage", "amount": { "count": "allies" } },
                { "op": "draw", "amount": { "per": 2 } },
                { "op": "armor", "amount": { "count": "armor", "per": 0 } },
                { "op": "armor", "amount": { "count": "energy", "per": 100, "plus": -1000 } },
                { "op": "armor", "amount": { "count": "energy", "times": 2 } },
                { "op": "heal", "amount": { "count": "stacks" } },
                { "op": "armor", "amount": [1] },
                { "op": "damage", "amount": { "count": "stacks", "status": "burn", "of": "target" } },
                { "op": "draw", "amount": { "count": "hand", "of": "target" } },
                { "op": "armor", "amount": { "count": "armor", "status": "burn" } },
                { "op": "armor", "amount": { "count": "stacks", "status": "frost" } },
                { "op": "armor", "amount": { "count": "armor", "of": "enemy" } }] }],
    "statuses": [{ "id": "burn", "timings": { "turn_start": [{ "op": "lose_hp", "amount": { "count": "stacks", "per": 2 } }] } }] })");
  expect_diagnostic(diags, "/cards/0/effects/1/amount/count",
                    {"unknown value 'allies'", "stacks, hand, draw_pile, discard_pile"});
  expect_diagnostic(diags, "/cards/0/effects/2/amount", {"missing required key 'count'"});
  expect_diagnostic(diags, "/cards/0/effects/3/amount/per",
                    {"expected a non-zero integer in [-99, 99], got 0"});
  expect_diagnostic(diags, "/cards/0/effects/4/amount/per", {"expected an integer in [-99, 99]", "100"});
  expect_diagnostic(diags, "/cards/0/effects/4/amount/plus", {"expected an integer in [-999, 999]", "-1000"});
  expect_diagnostic(diags, "/cards/0/effects/5/amount/times", {"unknown key 'times'", "count, per, plus"});
  expect_diagnostic(diags, "/cards/0/effects/6/amount/count",
                    {"outside a status's timings, a count of stacks names its status"});
  expect_diagnostic(diags, "/cards/0/effects/7/amount", {"expected an integer in [0, 999], got an array"});
  // A named status's stacks may be counted anywhere, on the source or the chosen target.
  expect_diagnostic(diags, "/cards/0/effects/9/amount/of", {"count hand is of no unit: expected no 'of'"});
  expect_diagnostic(diags, "/cards/0/effects/10/amount/status", {"only a count of stacks names a status"});
  expect_diagnostic(diags, "/cards/0/effects/11/amount/status", {"unknown status 'frost'"});
  expect_diagnostic(diags, "/cards/0/effects/12/amount/of", {"unknown value 'enemy'", "self, target"});
  EXPECT_EQ(diags.size(), 12u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, XCostsCardTypeCountsAndCountedTimesAreChecked) {
  const Diagnostics diags = refused_text(R"({ "cards": [
    { "id": "odd", "type": "skill", "cost": "y", "target": "none", "effects": [] },
    { "id": "fake", "type": "attack", "cost": 1, "target": "none", "effects": [
        { "op": "damage", "amount": 5, "times": { "count": "x" }, "target": "all_enemies" }] },
    { "id": "whirl", "type": "attack", "cost": "x", "target": "none", "effects": [
        { "op": "damage", "amount": 5, "times": { "count": "x", "per": 0 }, "target": "all_enemies" },
        { "op": "armor", "amount": { "count": "energy", "card_type": "attack" } },
        { "op": "armor", "amount": { "count": "hand", "card_type": ["attack", "spell"] } },
        { "op": "repeat", "times": "twice", "effects": [] },
        { "op": "repeat", "times": { "count": "x" }, "effects": [{ "op": "draw", "amount": 1 }] }],
      "in_hand_turn_start": [{ "op": "armor", "amount": { "count": "x" } }],
      "upgrade": { "cost": 1 } },
    { "id": "surge", "type": "skill", "cost": "x", "target": "none", "effects": [],
      "upgrade": { "cost": "z" } }],
    "statuses": [{ "id": "burn", "timings": { "turn_start": [{ "op": "lose_hp", "amount": { "count": "x" } }] } }] })");
  expect_diagnostic(diags, "/cards/0/cost", {"expected an integer in [0, 9] or \"x\"", "got 'y'"});
  expect_diagnostic(diags, "/cards/1/effects", {"card 'fake' counts its X", "expected \"cost\": \"x\""});
  expect_diagnostic(diags, "/cards/2/effects/0/times/per",
                    {"expected a non-zero integer in [-99, 99], got 0"});
  expect_diagnostic(diags, "/cards/2/effects/1/amount/card_type", {"count energy counts no cards"});
  expect_diagnostic(diags, "/cards/2/effects/2/amount/card_type/1", {"spell"});
  expect_diagnostic(diags, "/cards/2/effects/3/times", {"expected an integer in [1, 20]"});
  expect_diagnostic(diags, "/cards/2/in_hand_turn_start/0/amount/count", {"only counted in card effects"});
  // The upgrade costs 1 and keeps the card's effects, which count X.
  expect_diagnostic(diags, "/cards/2/upgrade/cost", {"card 'whirl+' counts its X"});
  expect_diagnostic(diags, "/cards/3/upgrade/cost", {"or \"x\"", "got 'z'"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0/amount/count", {"only counted in card effects"});
  EXPECT_EQ(diags.size(), 10u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, StacksAmountsAreForStatusTimingsOnly) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enemy",
    "effects": [{ "op": "damage", "amount": "stacks" }] }],
    "statuses": [{ "id": "burn", "timings": { "turn_start": [{ "op": "lose_hp", "amount": "lots" }] } }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/amount", {"expected an integer in [0, 999], got a string"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0/amount",
                    {"\"stacks\" or a count object", "got 'lots'"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, CostRuleNeedsExactlyOneOfSetAndChange) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "skill", "cost": 1, "target": "none",
    "effects": [{ "op": "cost_rule", "scope": "hand", "set": 0, "change": -1 },
                { "op": "cost_rule", "scope": "hand" }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0", {"expected exactly one of 'set'", "and 'change'"});
  expect_diagnostic(diags, "/cards/0/effects/1", {"expected exactly one of 'set'", "and 'change'"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, CostRuleWithABadSetOrChangeIsNotSaidToLackOne) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "skill", "cost": 1, "target": "none",
    "effects": [{ "op": "cost_rule", "scope": "hand", "set": "0" },
                { "op": "cost_rule", "scope": "hand", "change": 12 }] }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/set", {"expected an integer in [0, 9], got a string"});
  expect_diagnostic(diags, "/cards/0/effects/1/change", {"expected an integer in [-9, 9], got 12"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AChoiceRefusedWhereItStandsHasItsOptionsCheckedToo) {
  const Diagnostics diags = refused_text(with_good_bits(R"("enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "trick", "intent": "unknown", "effects": [
      { "op": "choice", "options": [{ "label": "A", "effects": [{ "op": "nope" }] },
                                    { "label": "B", "effects": [], "colour": "red" }] }] }],
    "behavior": { "kind": "sequence", "moves": ["trick"] } }],
    "statuses": [{ "id": "burn", "timings": { "turn_start": [
      { "op": "choice", "options": [{ "label": "A", "effects": [{ "op": "armor", "amount": -1 }] }] }] } }])"));
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/0", {"op 'choice' is only allowed in card effects"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/0/options/0/effects/0/op", {"unknown op 'nope'"});
  expect_diagnostic(diags, "/enemies/0/moves/0/effects/0/options/1/colour", {"unknown key 'colour'"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0",
                    {"op 'choice' is only allowed in card effects"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0/options", {"expected 2 to 4 options, got 1"});
  expect_diagnostic(diags, "/statuses/0/timings/turn_start/0/options/0/effects/0/amount",
                    {"expected an integer in [0, 999], got -1"});
  EXPECT_EQ(diags.size(), 6u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, MoveIdsFollowTheIdRules) {
  // Reported at the id only: the behaviour naming the move finds it.
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "Big Bite!", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] },
              { "id": "", "intent": "attack", "effects": [{ "op": "damage", "amount": 1 }] }],
    "behavior": { "kind": "sequence", "moves": ["Big Bite!", ""] } }] })");
  expect_diagnostic(diags, "/enemies/0/moves/0/id", {"expected an id of 1 to 64 characters", "'Big Bite!'"});
  expect_diagnostic(diags, "/enemies/0/moves/1/id", {"expected an id of 1 to 64 characters", "''"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, HookKeysMustFitTheHookKind) {
  const Diagnostics diags = refused_text(R"({ "hooks": [
    { "id": "a", "kind": "cancel_play", "keep_percent": 50 },
    { "id": "b", "kind": "armor_reset" },
    { "id": "c", "kind": "refuse_play", "effects": [] },
    { "id": "d", "kind": "on_card_played" },
    { "id": "e", "kind": "stop_everything" },
    { "id": "f", "kind": "refuse_play", "card_type": ["skill", "power"] },
    { "id": "g", "kind": "refuse_play", "card_type": ["skill", "skill"] },
    { "id": "h", "kind": "cancel_play", "card_type": "spell" }
  ] })");
  expect_diagnostic(diags, "/hooks/0/keep_percent", {"only an armor_reset hook keeps armor"});
  expect_diagnostic(diags, "/hooks/1", {"missing required key 'keep_percent'"});
  expect_diagnostic(diags, "/hooks/2/effects", {"only an on_card_played hook has effects"});
  expect_diagnostic(diags, "/hooks/3", {"missing required key 'effects'"});
  expect_diagnostic(
      diags, "/hooks/4/kind",
      {"unknown value 'stop_everything'", "cancel_play, refuse_play, armor_reset, on_card_played"});
  // A card_type as the ops that move cards take it: one type or a list of them, each once.
  expect_diagnostic(diags, "/hooks/6/card_type/1", {"'skill' is listed twice"});
  expect_diagnostic(diags, "/hooks/7/card_type", {"unknown value 'spell'", "attack, skill, power"});
  EXPECT_EQ(diags.size(), 7u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AHookOfAnUnknownKindIsNotCheckedAsAnotherKind) {
  const Diagnostics diags = refused_text(R"({ "hooks": [
    { "id": "a", "kind": "armor_rest", "keep_percent": 50, "duration": 2 },
    { "id": "b", "kind": "on_card_playd", "effects": [{ "op": "draw", "amount": 1 }] }
  ] })");
  expect_diagnostic(diags, "/hooks/0/kind",
                    {"unknown value 'armor_rest'", "cancel_play, refuse_play, armor_reset, on_card_played"});
  expect_diagnostic(diags, "/hooks/1/kind", {"unknown value 'on_card_playd'"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ConditionsAndConditionalBehavioursAreChecked) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "skill", "cost": 1, "target": "none",
    "effects": [{ "op": "conditional", "if": { "kind": "lucky" }, "then": [] },
                { "op": "conditional", "if": { "kind": "self_hp_below_percent" }, "then": [] }] }],
    "enemies": [{ "id": "rat", "hp": 5,
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "conditional", "rules": [{ "if": { "kind": "attacked_this_turn" }, "move": "gnaw" }] } }] })");
  expect_diagnostic(diags, "/cards/0/effects/0/if/kind", {"unknown value 'lucky'", "target_has_status"});
  expect_diagnostic(diags, "/cards/0/effects/1/if", {"missing required key 'percent'"});
  expect_diagnostic(diags, "/enemies/0/behavior/rules/0/move", {"unknown move 'gnaw'"});
  expect_diagnostic(diags, "/enemies/0/behavior", {"missing required key 'otherwise'"});
  EXPECT_EQ(diags.size(), 4u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AnUpgradeIsCheckedLikeACard) {
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "skill", "cost": 1, "target": "none",
    "effects": [], "upgrade": { "cost": 12, "colour": "gold", "effects": [{ "op": "damage", "amount": 3 }] } }] })");
  expect_diagnostic(diags, "/cards/0/upgrade/cost", {"expected an integer in [0, 9] or \"x\", got 12"});
  expect_diagnostic(diags, "/cards/0/upgrade/colour", {"unknown key 'colour'", "name, text, cost, effects"});
  expect_diagnostic(diags, "/cards/0/upgrade/effects", {"aims at the chosen target"});
  EXPECT_EQ(diags.size(), 3u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AnUpgradeOfACardWithABadTargetIsNotSaidToHaveNoTarget) {
  // The card's target is unknown (reported), not "none": the upgrade's chosen target is no problem.
  const Diagnostics diags =
      refused_text(R"({ "cards": [{ "id": "zap", "type": "attack", "cost": 1, "target": "enmy",
    "effects": [{ "op": "damage", "amount": 2 }], "upgrade": { "effects": [{ "op": "damage", "amount": 3 }] } }] })");
  expect_diagnostic(diags, "/cards/0/target", {"unknown value 'enmy'", "none, enemy"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

// --- cards -----------------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, CardFieldsAreChecked) {
  const Diagnostics diags = refused_text(R"({ "cards": [
    { "id": "Zap!", "type": "attack", "cost": 1, "target": "enemy", "effects": [] },
    { "id": "zip", "type": "spell", "cost": 12, "target": "enemy", "keywords": ["sticky"], "effects": [] },
    { "id": "zop", "cost": 1, "target": "enemy", "effects": [] }
  ] })");
  expect_diagnostic(diags, "/cards/0/id", {"expected an id of 1 to 64 characters", "'Zap!'"});
  expect_diagnostic(diags, "/cards/1/type", {"unknown value 'spell'", "attack, skill, power, status, curse"});
  expect_diagnostic(diags, "/cards/1/cost", {"expected an integer in [0, 9] or \"x\", got 12"});
  expect_diagnostic(diags, "/cards/1/keywords/0",
                    {"expected a keyword (innate, retain, ethereal, exhaust, unplayable), got 'sticky'"});
  expect_diagnostic(diags, "/cards/2", {"missing required key 'type'"});
}

// --- ids across files ------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, DuplicateIdsAcrossTwoFilesOfADirectory) {
  const fs::path dir = kBad / "duplicate_ids";
  const Diagnostics diags = refused(load_catalog(dir));
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
  const std::optional<Diagnostic> d = at(diags, "/cards/1/id");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->file, (dir / "b_cards.json").string());
  EXPECT_EQ(d->line, 11);
  EXPECT_EQ(d->column, 13);
  // The kind is named in the singular.
  EXPECT_TRUE(contains(d->message, "duplicate card id 'strike'")) << d->message;
  // ... and says where the first one is.
  EXPECT_TRUE(contains(d->message, "first defined at " + (dir / "a_cards.json").string() + ":3:5"))
      << d->message;
}

// --- pack-wide limits ------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, AnIdPastTheLimitOfItsKindIsReportedWhereItStands) {
  const auto cards = [](std::size_t count) {
    return R"({"cards": [)" +
           test::json_list(count, [](std::size_t i) { return card("c" + std::to_string(i), ""); }) + "\n]}";
  };
  const CatalogResult full = load_text(cards(kMaxIdsPerKind));
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  EXPECT_EQ(full.value()->cards.size(), kMaxIdsPerKind);

  // Card i stands on line i + 2: the first past the limit is named by its file, place and pointer.
  const Diagnostics diags = refused(load_text(cards(kMaxIdsPerKind + 1)));
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(format_diagnostic(d),
            "bad.json:4002:1: /cards/4000: more than 4000 of kind card: expected at most 4000 in a pack, "
            "this is number 4001");
}

/// Cards c0, c1, ... holding `count` copies of `op` between them, 64 to a card (short arrays keep
/// the text quick to parse), one a line, separated by commas.
std::string cards_holding(std::size_t count, const std::string& op) {
  constexpr std::size_t kPerCard = 64;
  return test::json_list((count + kPerCard - 1) / kPerCard, [&](std::size_t i) {
    return card("c" + std::to_string(i),
                test::json_list(std::min(kPerCard, count - i * kPerCard), [&](std::size_t) { return op; }));
  });
}

// Op::block is 16 bits: without the limit, block 65,536 would be block 0 and card b would play
// card c0's first list.
TEST(DeckbuilderCatalogLoader, ANestedEffectListPastTheLimitIsReportedAtItsOp) {
  const std::string lists = cards_holding(kMaxBlocks, R"({"op": "repeat", "times": 1, "effects": []})");
  const CatalogResult full = load_text(R"({"cards": [)" + lists + "]}");
  ASSERT_TRUE(full.ok()) << full.error().to_string();
  EXPECT_EQ(full.value()->blocks.size(), kMaxBlocks);

  const std::string b =
      card("b", R"({"op": "repeat", "times": 1, "effects": [{"op": "armor", "amount": 5}]})");
  const Diagnostics diags = refused(load_text(R"({"cards": [)" + lists + ",\n" + b + "]}"));
  expect_diagnostic(
      diags, "/cards/1024/effects/0",
      {"more than 65536 nested effect lists: expected at most 65536 in a pack, this is number 65537"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

// A card's list and 15 lists inside it take kMaxEffectDepth effect frames when they run, which
// a battle holds; a list one deeper is refused at its key, wherever it stands (a card, an enemy's
// move), and nothing else is reported about the lists around it.
TEST(DeckbuilderCatalogLoader, EffectListsNestedPastTheEffectDepthAreReportedWhereTheyStand) {
  const auto nested = [](std::size_t lists) {
    std::string effects = R"([{"op": "armor", "amount": 1}])";
    for (std::size_t level = 1; level < lists; ++level)
      effects = R"([{"op": "repeat", "times": 2, "effects": )" + effects + "}]";
    return effects;
  };
  const auto pointer = [](std::string_view list) {
    std::string p = std::string(list) + "/0";
    for (std::size_t level = 1; level < kMaxEffectDepth; ++level) p += "/effects/0";
    return p + "/effects";
  };
  const std::string deepest = R"({"id": "deep", "type": "skill", "cost": 0, "target": "none", "effects": )" +
                              nested(kMaxEffectDepth) + "}";
  const CatalogResult ok = load_text(R"({"cards": [)" + deepest + "]}");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();

  const std::string too_deep =
      R"({"id": "deeper", "type": "skill", "cost": 0, "target": "none", "effects": )" +
      nested(kMaxEffectDepth + 1) + "}";
  const std::string enemy =
      R"({"id": "rat", "hp": 5, "moves": [{"id": "m", "intent": "defend", "effects": )" +
      nested(kMaxEffectDepth + 1) + R"(}], "behavior": {"kind": "sequence", "moves": ["m"]}})";
  const Diagnostics diags =
      refused(load_text(R"({"cards": [)" + too_deep + R"(], "enemies": [)" + enemy + "]}"));
  const std::string expected =
      "expected effect lists nested at most " + std::to_string(kMaxEffectDepth) +
      " deep (the list an owner runs, and the lists inside it); this one is at depth " +
      std::to_string(kMaxEffectDepth + 1);
  expect_diagnostic(diags, pointer("/cards/0/effects"), {expected});
  expect_diagnostic(diags, pointer("/enemies/0/moves/0/effects"), {expected});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

// An attack runs its target's on_attacked behaviour inside the attack's own lists, so the effect
// frames of both are in use at once (rules_test runs the deepest pair the loader takes). A
// behaviour that would not fit beside the pack's deepest attack is refused at its key, naming
// that attack. A list without nested lists runs without the effect stack, and a status's own hits
// set off no behaviour: neither counts.
TEST(DeckbuilderCatalogLoader, AnOnAttackedBehaviourThatWouldNotFitBesideTheDeepestAttackIsReported) {
  const auto nested = [](std::size_t lists, std::string_view innermost) {
    std::string effects = "[" + std::string(innermost) + "]";
    for (std::size_t level = 1; level < lists; ++level)
      effects = R"([{"op": "repeat", "times": 1, "effects": )" + effects + "}]";
    return effects;
  };
  const auto innermost_op = [](std::string list, std::size_t lists) {
    for (std::size_t level = 1; level < lists; ++level) list += "/0/effects";
    return list + "/0";
  };
  const std::string hit = R"({"op": "damage", "amount": 1})";
  const std::string armor = R"({"op": "armor", "amount": 1})";
  const auto attacker = [&](std::size_t lists) {
    return R"({"id": "deep", "type": "attack", "cost": 0, "target": "enemy", "effects": )" +
           nested(lists, hit) + "}";
  };
  const auto status = [&](std::string_view id, std::string_view timing, std::size_t lists,
                          std::string_view innermost) {
    return R"({"id": ")" + std::string(id) + R"(", "timings": {")" + std::string(timing) + R"(": )" +
           nested(lists, innermost) + "}}";
  };
  const auto pack = [](const std::string& cards, const std::string& statuses,
                       const std::string& enemies = "") {
    return R"({"cards": [)" + cards + R"(], "statuses": [)" + statuses + R"(], "enemies": [)" + enemies +
           "]}";
  };
  const auto loads = [&](const std::string& text) {
    const CatalogResult r = load_text(text);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string()) << "\n" << text;
  };
  loads(pack(attacker(12), status("bristles", "on_attacked", 4, armor)));
  loads(pack(attacker(kMaxEffectDepth), status("bristles", "on_attacked", 1, armor)));
  loads(pack(attacker(1), status("bristles", "on_attacked", kMaxEffectDepth, armor)));
  loads(pack(attacker(1), status("bristles", "on_attacked", kMaxEffectDepth, armor) + "," +
                              status("barbs", "turn_start", kMaxEffectDepth, hit)));

  // One too many: each behaviour that does not fit is reported, with the one deepest attack.
  const std::string text = pack(attacker(13), status("bristles", "on_attacked", 4, armor) + "," +
                                                  status("quills", "on_attacked", 3, armor) + "," +
                                                  status("spikes", "on_attacked", 5, armor));
  const std::string attack = "bad.json:1:" + std::to_string(text.find(hit) + 1) + " " +
                             innermost_op("/cards/0/effects", 13) + " holds 13 of the 16 a battle has";
  const Diagnostics diags = refused(load_text(text));
  expect_diagnostic(diags, "/statuses/0/timings/on_attacked",
                    {"expected effect lists needing at most 3 effect frames (one a list in progress, none "
                     "for a list without nested lists), got lists nested 4 deep: an on_attacked behaviour "
                     "runs inside the attack that sets it off, and the attack at ",
                     attack});
  expect_diagnostic(diags, "/statuses/2/timings/on_attacked", {"got lists nested 5 deep", attack});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();

  // An enemy's move attacks too (the player may hold the status).
  const std::string move = R"({"id": "rat", "hp": 5, "moves": [{"id": "m", "intent": "attack", "effects": )" +
                           nested(14, hit) + R"(}], "behavior": {"kind": "sequence", "moves": ["m"]}})";
  const Diagnostics by_move =
      refused(load_text(pack(attacker(1), status("bristles", "on_attacked", 3, armor), move)));
  expect_diagnostic(
      by_move, "/statuses/0/timings/on_attacked",
      {"at most 2 effect frames", innermost_op("/enemies/0/moves/0/effects", 14) + " holds 14"});
  EXPECT_EQ(by_move.size(), 1u) << by_move.to_string();
}

// Op::ref is 16 bits: without the limit, condition 65,536 would be condition 0. Each conditional
// op adds a nested list too, so the one past both limits is reported at its condition and at itself.
TEST(DeckbuilderCatalogLoader, AConditionPastTheLimitIsReportedWhereItStands) {
  static_assert(kMaxConditions == kMaxBlocks);
  const std::string conditional =
      R"({"op": "conditional", "if": {"kind": "attacked_this_turn"}, "then": []})";
  const std::string b = card("b", conditional);
  const Diagnostics diags =
      refused(load_text(R"({"cards": [)" + cards_holding(kMaxConditions, conditional) + ",\n" + b + "]}"));
  expect_diagnostic(diags, "/cards/1024/effects/0/if",
                    {"more than 65536 conditions: expected at most 65536 in a pack, this is number 65537"});
  expect_diagnostic(diags, "/cards/1024/effects/0", {"more than 65536 nested effect lists"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ReferencesResolveAcrossFiles) {
  // The same content split over two documents, the reference before its target, loads.
  Diagnostics parse;
  std::vector<content::JsonDocument> docs;
  docs.push_back(*content::parse_json_text(
      "players.json", R"({ "players": [{ "id": "hero", "max_hp": 20, "deck": [{ "card": "jab" }] }] })",
      parse));
  docs.push_back(*content::parse_json_text("cards.json",
                                           R"({ "cards": [{ "id": "jab", "type": "attack", "cost": 1,
    "target": "enemy", "effects": [{ "op": "damage", "amount": 3 }] }] })",
                                           parse));
  ASSERT_TRUE(parse.empty()) << parse.to_string();
  const CatalogResult r = load_catalog(docs);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r.value()->players[0].deck.size(), 1u);
}

// --- encounters ------------------------------------------------------------------------------

constexpr std::string_view kRat = R"("enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
    "behavior": { "kind": "sequence", "moves": ["bite"] } }])";

TEST(DeckbuilderCatalogLoader, EncounterWithAnUnknownEnemy) {
  const Diagnostics diags = refused_text(
      with_good_bits(std::string(kRat) +
                     R"(, "encounters": [{ "id": "e", "player": "hero", "enemies": ["rat", "ghost"] }])"));
  expect_diagnostic(diags, "/encounters/0/enemies/1",
                    {"unknown enemy 'ghost'", "expected the id of an enemy defined in the pack"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, EncounterWithAnUnknownPlayer) {
  const Diagnostics diags = refused_text(with_good_bits(
      std::string(kRat) + R"(, "encounters": [{ "id": "e", "player": "villain", "enemies": ["rat"] }])"));
  expect_diagnostic(diags, "/encounters/0/player", {"unknown player 'villain'"});
}

TEST(DeckbuilderCatalogLoader, EncounterWithNoEnemies) {
  const Diagnostics diags = refused_text(with_good_bits(
      std::string(kRat) + R"(, "encounters": [{ "id": "e", "player": "hero", "enemies": [] }])"));
  expect_diagnostic(diags, "/encounters/0/enemies", {"expected 1 to 5 enemies, got 0"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, EncounterRulesAreChecked) {
  const Diagnostics diags = refused_text(with_good_bits(std::string(kRat) + R"(, "encounters": [{ "id": "e",
    "player": "hero", "enemies": ["rat"],
    "rules": { "armor_decay": "halve", "hand_limit": 40, "energy": 3 } }])"));
  expect_diagnostic(diags, "/encounters/0/rules/armor_decay",
                    {"unknown value 'halve'", "reset_on_turn_start, persist"});
  expect_diagnostic(diags, "/encounters/0/rules/hand_limit", {"expected an integer in [1, 12], got 40"});
  expect_diagnostic(diags, "/encounters/0/rules/energy", {"unknown key 'energy'", "max_energy"});
}

// --- enemies ---------------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, EnemyHpMaxBelowMin) {
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rat", "hp": { "min": 20, "max": 10 },
    "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
    "behavior": { "kind": "sequence", "moves": ["bite"] } }] })");
  expect_diagnostic(diags, "/enemies/0/hp/max", {"expected max >= min (20)"});
  EXPECT_EQ(diags.size(), 1u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AnHpBoundOfTheWrongTypeIsTheOnlyProblemReported) {
  // The bad bound is not taken for 1 to check the other against.
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rat", "hp": { "min": 20, "max": "30" },
    "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
    "behavior": { "kind": "sequence", "moves": ["bite"] } }],
    "cards": [{ "id": "jab", "type": "attack", "cost": 1, "target": "enemy",
                "effects": [{ "op": "damage", "amount": 3 }] }],
    "players": [{ "id": "hero", "max_hp": "20", "hp": 10, "deck": [{ "card": "jab" }] }] })");
  expect_diagnostic(diags, "/enemies/0/hp/max", {"expected an integer in [1, 9999], got a string"});
  expect_diagnostic(diags, "/players/0/max_hp", {"expected an integer in [1, 9999], got a string"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ListsAreCountedWithTheEntriesThatHaveProblems) {
  // An unknown card neither empties a deck nor hides that it is too long; nor does an unknown
  // status hide that an enemy starts with too many.
  std::string statuses;
  for (int i = 0; i < 8; ++i) statuses += R"({ "status": "burn", "amount": 1 }, )";
  statuses += R"({ "status": "frost", "amount": 1 })";
  const Diagnostics diags = refused_text(R"({
    "cards": [{ "id": "jab", "type": "attack", "cost": 1, "target": "enemy",
                "effects": [{ "op": "damage", "amount": 3 }] }],
    "statuses": [{ "id": "burn" }],
    "enemies": [{ "id": "rat", "hp": 5, "statuses": [)" +
                                         statuses + R"(],
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "sequence", "moves": ["bite"] } }],
    "players": [{ "id": "hero", "max_hp": 20, "deck": [{ "card": "jab", "count": 64 }, { "card": "jabb" }] },
                { "id": "ghost", "max_hp": 20, "deck": [{ "card": "boo", "count": 3 }] }] })");
  expect_diagnostic(diags, "/enemies/0/statuses", {"expected at most 8 statuses"});
  expect_diagnostic(diags, "/enemies/0/statuses/8/status", {"unknown status 'frost'"});
  expect_diagnostic(diags, "/players/0/deck", {"expected at most 64 cards, got 65"});
  expect_diagnostic(diags, "/players/0/deck/1/card", {"unknown card 'jabb'"});
  expect_diagnostic(diags, "/players/1/deck/0/card", {"unknown card 'boo'"});
  EXPECT_EQ(diags.size(), 5u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, MovesAreCountedAsListed) {
  // 33 entries are too many, one of them no move at all.
  std::string moves;
  for (int i = 0; i < 32; ++i)
    moves += R"({ "id": "m)" + std::to_string(i) + R"(", "intent": "unknown", "effects": [] }, )";
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rat", "hp": 5, "moves": [)" + moves +
                                         R"(7], "behavior": { "kind": "sequence", "moves": ["m0"] } }] })");
  expect_diagnostic(diags, "/enemies/0/moves", {"expected at most 32 moves"});
  expect_diagnostic(diags, "/enemies/0/moves/32", {"expected an object"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, RulesPastTheEighthAreCheckedToo) {
  std::string rules;
  for (int i = 0; i < 8; ++i) rules += R"({ "if": { "kind": "attacked_this_turn" }, "move": "bite" }, )";
  rules += R"({ "if": { "kind": "attacked_this_turn" }, "move": "gnaw", "twice": true })";
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rat", "hp": 5,
    "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
    "behavior": { "kind": "conditional", "rules": [)" +
                                         rules + R"(],
                  "otherwise": { "kind": "sequence", "moves": ["bite"] } } }] })");
  expect_diagnostic(diags, "/enemies/0/behavior/rules", {"expected 1 to 8 rules"});
  expect_diagnostic(diags, "/enemies/0/behavior/rules/8/move", {"unknown move 'gnaw'"});
  expect_diagnostic(diags, "/enemies/0/behavior/rules/8/twice", {"unknown key 'twice'"});
  EXPECT_EQ(diags.size(), 3u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, BehaviourReferringToAnUnknownMove) {
  const Diagnostics diags = refused_text(R"({ "enemies": [
    { "id": "rat", "hp": 5,
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "random", "first": "lunge",
                    "moves": [{ "move": "bite" }, { "move": "roar", "weight": 2 }] } },
    { "id": "bat", "hp": 5,
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "sequence", "moves": ["bite", "screech"] } }
  ] })");
  expect_diagnostic(diags, "/enemies/0/behavior/first", {"unknown move 'lunge'", "a move id of enemy 'rat'"});
  expect_diagnostic(diags, "/enemies/0/behavior/moves/1/move",
                    {"unknown move 'roar'", "a move id of enemy 'rat'"});
  expect_diagnostic(diags, "/enemies/1/behavior/moves/1",
                    {"unknown move 'screech'", "a move id of enemy 'bat'"});
  EXPECT_EQ(diags.size(), 3u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ABehaviourOfAnUnknownKindIsNotCheckedAsAnotherKind) {
  const Diagnostics diags = refused_text(R"({ "enemies": [
    { "id": "rat", "hp": 5,
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "sequnce", "moves": ["bite"], "loop_from": 0 } },
    { "id": "bat", "hp": 5,
      "moves": [{ "id": "bite", "intent": "attack", "effects": [{ "op": "damage", "amount": 2 }] }],
      "behavior": { "kind": "conditional", "rules": [{ "if": { "kind": "attacked_this_turn" }, "move": "bite" }],
                    "otherwise": { "kind": "conditional", "moves": ["bite"], "loop_from": 0 } } }
  ] })");
  expect_diagnostic(diags, "/enemies/0/behavior/kind",
                    {"unknown value 'sequnce'", "expected one of: random, sequence, conditional"});
  // A conditional behaviour's `otherwise` is random or sequence.
  expect_diagnostic(diags, "/enemies/1/behavior/otherwise/kind",
                    {"unknown value 'conditional'", "expected one of: random, sequence"});
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, EnemyWithoutMovesOrBehaviour) {
  const Diagnostics diags = refused_text(R"({ "enemies": [{ "id": "rock", "hp": 5, "moves": [] }] })");
  expect_diagnostic(diags, "/enemies/0/moves", {"expected at least one move"});
  expect_diagnostic(diags, "/enemies/0", {"missing required key 'behavior'"});
}

// --- syntax ----------------------------------------------------------------------------------

TEST(DeckbuilderCatalogLoader, SyntaxErrorGivesItsLineAndColumn) {
  const fs::path file = kBad / "syntax_error.json";
  const Diagnostics diags = refused(load_catalog(file));
  ASSERT_EQ(diags.size(), 1u) << diags.to_string();
  const Diagnostic& d = diags.items()[0];
  EXPECT_EQ(d.file, file.string());
  // Line 4 opens a second card without a comma after the first.
  EXPECT_EQ(d.line, 4);
  EXPECT_EQ(d.column, 5);
  EXPECT_TRUE(d.pointer.empty());
  EXPECT_TRUE(contains(d.message, "syntax error")) << d.message;
}

TEST(DeckbuilderCatalogLoader, ASyntaxErrorInOneFileOfADirectoryMeansNoCatalog) {
  // The bad directory holds a syntax error next to good-looking files: nothing is loaded.
  const Diagnostics diags = refused(load_catalog(kBad));
  bool syntax = false;
  for (const Diagnostic& d : diags.items()) syntax |= contains(d.file, "syntax_error.json");
  EXPECT_TRUE(syntax) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, AFileThatDoesNotParseHidesNoProblemOfTheOthers) {
  test::TempDir dir;
  std::ofstream(dir.path() / "cards.json") << R"({"cards": [{ "id": "jab", "id": "jab", "type": "attack",
    "cost": 1, "target": "enemy", "effects": [{ "op": "damage", "amount": 3 }] }]})";
  std::ofstream(dir.path() / "players.json")
      << R"({"players": [{ "id": "hero", "max_hp": -1, "deck": [{ "card": "jab", "count": 5 }] }]})";
  std::ofstream(dir.path() / "zz.json") << "[1,";
  const Diagnostics diags = refused(load_catalog(dir.path()));
  EXPECT_EQ(diags.size(), 3u) << diags.to_string();
  expect_diagnostic(diags, "/cards/0/id", {"duplicate key 'id'"}, (dir.path() / "cards.json").string());
  expect_diagnostic(diags, "/players/0/max_hp", {"-1"}, (dir.path() / "players.json").string());
}

// The cards, the burn status and the encounter are in the file that does not parse: the references
// to them from the files that do are not reported, as they may be answered there.
TEST(DeckbuilderCatalogLoader, IdsAFileThatDoesNotParseMayDefineAreNotReportedUnknown) {
  test::TempDir dir;
  std::ofstream(dir.path() / "content.json")
      << R"({"cards": [{ "id": "jab", "type": "attack", "cost": 1e400 }]})";
  std::ofstream(dir.path() / "pack.json") << R"({"pack": { "id": "t", "default_encounter": "e" }})";
  std::ofstream(dir.path() / "players.json") << R"({"players": [{ "id": "hero", "max_hp": -1,
      "deck": [{ "card": "jab", "count": 5 }] }],
    "statuses": [{ "id": "vigil", "timings": { "turn_start": [
      { "op": "apply_status", "status": "burn", "amount": 1, "target": "self" }] } }]})";
  const Diagnostics diags = refused(load_catalog(dir.path()));
  expect_diagnostic(diags, "", {"1e400"}, (dir.path() / "content.json").string());
  expect_diagnostic(diags, "/players/0/max_hp", {"-1"}, (dir.path() / "players.json").string());
  EXPECT_EQ(diags.size(), 2u) << diags.to_string();
}

TEST(DeckbuilderCatalogLoader, ThePackIdFollowsTheIdRules) {
  for (const char* id : {"Bad Id!", ""}) {
    SCOPED_TRACE(id);
    const Diagnostics diags = refused_text(with_good_bits(std::string(R"("pack": {"id": ")") + id + "\"}"));
    expect_diagnostic(diags, "/pack/id", {"expected an id of 1 to 64 characters"});
  }
}

TEST(DeckbuilderCatalogLoader, AMissingPathIsReported) {
  const Diagnostics diags = refused(load_catalog(kBad / "no_such_pack"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_TRUE(contains(diags.items()[0].message, "no such file")) << diags.items()[0].message;
}

}  // namespace
}  // namespace battlecore::deckbuilder
