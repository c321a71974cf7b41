#include "battlecore/sim/simulate.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "battlecore/sim/runner.hpp"
#include "sim/deckbuilder_adapter.hpp"
#include "sim/sim_support.hpp"

namespace battlecore::sim {

using namespace deckbuilder;

namespace {
constexpr BattleOptions kQuiet{.event_log = false, .record_history = false};
}

// --- the adapter --------------------------------------------------------------------------

DeckbuilderAdapter::Player::Player(std::shared_ptr<const Catalog> catalog, EncounterId encounter,
                                   std::unique_ptr<Policy> policy, bool count_enemy_damage,
                                   const nlohmann::json& scenario,
                                   const std::optional<ScenarioStart>& scenario_start,
                                   const std::vector<CardId>& deck)
    : catalog_(std::move(catalog)),
      encounter_(encounter),
      count_enemy_damage_(count_enemy_damage),
      scenario_(scenario),
      scenario_start_(scenario_start),
      deck_(deck),
      policy_(std::move(policy)),
      random_(dynamic_cast<RandomPolicy*>(policy_.get())),
      battle_(catalog_, kQuiet),
      plays_of_(catalog_->cards.size(), 0),
      first_played_(catalog_->cards.size() + 1) {  // every card, and the slot each later play writes
  actions_.reserve(256);
}

[[gnu::hot]] void DeckbuilderAdapter::Player::play(std::uint64_t seed, BattleRecord& out) {
  out.clear();
  actions_.clear();
  last_seed_ = seed;
  policy_->reset(policy_seed(seed));
  if (scenario_.is_null()) {
    const auto started = battle_.start_battle(encounter_, seed, deck_);
    BATTLECORE_ENSURE(started.ok(), "the battle did not start: {}",
                      started.ok() ? "" : started.error().message);
  } else if (!scenario_start_ || !scenario_start_->start(battle_, seed)) {
    // Read from the document: a seed whose start does not fit the scenario is refused with why.
    auto started =
        DeckbuilderRules::start(catalog_, {catalog_->encounters[encounter_].id, seed, scenario_}, kQuiet);
    BATTLECORE_ENSURE(started.ok(), "the battle did not start: {}",
                      started.ok() ? "" : started.error().message);
    battle_ = std::move(started).value();
  }
  // The loop made for the policy and for whether the actions are kept, each known here once.
  const std::size_t distinct_played =
      random_ != nullptr ? (keep_actions_ ? decide<true, true>(out) : decide<true, false>(out))
                         : (keep_actions_ ? decide<false, true>(out) : decide<false, false>(out));
  for (std::size_t i = 0; i < distinct_played; ++i) {
    const CardId card = first_played_[i];
    out.cards_played.push_back(CardPlays{card, plays_of_[card]});
    plays_of_[card] = 0;
  }
  const BattleState& s = battle_.state();
  out.won = battle_.won();
  out.turns = s.player_turns;
  out.hp_left = out.won ? static_cast<std::uint32_t>(std::max(0, s.player.hp)) : 0;
  const DamageStats& damage = battle_.damage_stats();
  for (std::size_t e = 0; e < s.enemies.size(); ++e) {
    out.enemies.push_back(s.enemies[e].def);
    if (!count_enemy_damage_) continue;
    out.enemy_damage.push_back(static_cast<std::uint64_t>(damage.hp[e + 1]));
    out.enemy_armor.push_back(static_cast<std::uint64_t>(damage.armor[e + 1]));
  }
}

template <bool kRandom, bool kKeepActions>
[[gnu::hot]] std::size_t DeckbuilderAdapter::Player::decide(BattleRecord& out) {
  std::size_t distinct_played = 0;
  while (battle_.status() == Status::AwaitingDecision) {
    Action action;
    if constexpr (kRandom) {
      // The random policy picks by index alone: the options are listed only where the hand does
      // not give them.
      action = battle_.pick_option(options_, [&](std::size_t n) { return random_->pick(n); });
    } else {
      battle_.legal_actions(options_);
      action =
          options_[policy_choice(options_.size(), [&] { return policy_->choose(battle_, options_.span()); })];
    }
    if constexpr (kKeepActions) actions_.push_back(action);
    if (action.kind == ActionKind::PlayCard) {
      // Counted per card as the battle goes; a card's first play also writes it down.
      const CardId card = battle_.state().cards[action.card].def;
      first_played_[distinct_played] = card;
      distinct_played += plays_of_[card]++ == 0 ? 1 : 0;
    }
    ++out.decisions;
    battle_.submit_listed(action);
  }
  return distinct_played;
}

nlohmann::json DeckbuilderAdapter::Player::actions_json() {
  if (!keep_actions_) {
    // The same seed gives the same battle (the policy is reset from it too): played again from
    // a fresh battle with its actions kept, up to its end or to the engine error it raised.
    keep_actions_ = true;
    BattleRecord again;
    try {
      recover();
      play(last_seed_, again);
    } catch (const InvariantError&) {
    }
    keep_actions_ = false;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const Action& a : actions_) out.push_back(action_to_json(a));
  return out;
}

void DeckbuilderAdapter::Player::recover() {
  battle_ = Battle(catalog_, kQuiet);  // start the next battle from a clean object
  std::fill(plays_of_.begin(), plays_of_.end(), 0);
}

void DeckbuilderAdapter::describe(SimReport& header) const {
  header.rules = "deckbuilder";
  header.encounter = catalog_->encounters[encounter_].id;
  header.content_hash = catalog_->content_hash;
  header.enemy_damage_counted = count_enemy_damage_;
  for (const CardDef& c : catalog_->cards) header.card_ids.push_back(c.id);
  for (const EnemyDef& e : catalog_->enemies) header.enemy_ids.push_back(e.id);
}

Result<std::unique_ptr<DeckbuilderAdapter::Player>> DeckbuilderAdapter::make_player(
    std::string_view policy) const {
  auto made = make_named_policy(policy, own_policies_,
                                [&](std::string_view name) { return make_policy(name, policy_options_); });
  if (!made) return made.error();
  return std::make_unique<Player>(catalog_, encounter_, std::move(made.value()), count_enemy_damage_,
                                  scenario_, scenario_start_, deck_);
}

// --- decks -------------------------------------------------------------------------------

Result<std::vector<std::string>> parse_deck(std::string_view text) {
  std::vector<std::string> deck;
  std::size_t item = 0;
  for (std::size_t at = 0; at <= text.size(); ++item) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    std::string_view part = text.substr(at, comma - at);
    at = comma + 1;
    // Spaces around an item ("strike*5, bash") are not part of it.
    while (!part.empty() && (part.front() == ' ' || part.front() == '\t')) part.remove_prefix(1);
    while (!part.empty() && (part.back() == ' ' || part.back() == '\t')) part.remove_suffix(1);
    const std::size_t star = part.find('*');
    const std::string_view id = part.substr(0, star);
    if (id.empty())
      return Error{
          fmt::format("deck '{}': item {} has no card id (the form is ID[*N],ID[*N],...)", text, item + 1)};
    std::size_t copies = 1;
    if (star != std::string_view::npos) {
      const std::string_view count = part.substr(star + 1);
      const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), copies);
      if (count.empty() || ec != std::errc{} || end != count.data() + count.size() || copies < 1 ||
          copies > kMaxCards)
        return Error{fmt::format("deck '{}': the count in '{}' must be a whole number from 1 to {}", text,
                                 part, kMaxCards)};
    }
    if (deck.size() + copies > kMaxCards)
      return Error{fmt::format("deck '{}' has more than {} cards, the most a battle holds", text, kMaxCards)};
    deck.insert(deck.end(), copies, std::string(id));
  }
  return deck;
}

std::string deck_text(const std::vector<std::string>& deck) {
  std::string out;
  for (std::size_t i = 0; i < deck.size();) {
    std::size_t j = i;
    while (j < deck.size() && deck[j] == deck[i]) ++j;
    if (!out.empty()) out += ',';
    out += j - i == 1 ? deck[i] : fmt::format("{}*{}", deck[i], j - i);
    i = j;
  }
  return out;
}

Result<std::vector<CardId>> deck_cards(const Catalog& catalog, const std::vector<std::string>& deck,
                                       std::string_view which) {
  std::vector<CardId> cards;
  std::vector<std::string> unknown;
  for (const std::string& id : deck) {
    if (const auto card = catalog.find_card(id))
      cards.push_back(*card);
    else if (std::find(unknown.begin(), unknown.end(), id) == unknown.end())
      unknown.push_back(id);
  }
  if (!unknown.empty())
    return Error{fmt::format("the {} names cards that pack '{}' does not have: {}", which, catalog.pack.id,
                             fmt::join(unknown, ", "))};
  if (cards.size() > kMaxCards)
    return Error{
        fmt::format("the {} has {} cards; a battle holds at most {}", which, cards.size(), kMaxCards)};
  return cards;
}

// --- the deckbuilder's entry point --------------------------------------------------------

namespace {

/// The run's scenario read once (none without one), checked already by check_scenario with the
/// seed of battle 0; refused when its overrides fit the start of some battles only.
Result<std::optional<ScenarioStart>> read_scenario(const std::shared_ptr<const Catalog>& catalog,
                                                   const SimConfig& config) {
  if (config.scenario.is_null()) return std::optional<ScenarioStart>{};
  auto read = ScenarioStart::read(catalog,
                                  content::JsonDocument{"scenario", config.scenario.dump(2), config.scenario},
                                  battle_seed(config.seed, 0));
  if (!read) return Error{"the scenario is refused:\n" + read.error().to_string()};
  if (const std::string unfit = read.value().fits_only_some_seeds(); !unfit.empty())
    return Error{"the scenario cannot start every battle: " + unfit};
  return std::optional<ScenarioStart>{std::move(read).value()};
}

}  // namespace

Result<SimReport> simulate_deckbuilder(const std::shared_ptr<const Catalog>& catalog, const SimConfig& asked,
                                       const std::shared_ptr<const Catalog>& versus_catalog) {
  const auto encounter = resolve_encounter(*catalog, asked.encounter, asked.scenario);
  if (!encounter) return encounter.error();
  if (auto checked = check_own_policies(asked.deckbuilder_policies, policy_names()); !checked)
    return checked.error();
  const SimConfig config = with_scenario_encounter(asked, catalog->encounters[encounter.value()].id);
  if (auto checked =
          check_scenario<DeckbuilderRules>(catalog, catalog->encounters[encounter.value()].id, config);
      !checked)
    return checked.error();
  if (!config.scenario.is_null() && (!config.deck.empty() || !config.versus_deck.empty()))
    return Error{std::string(kDeckWithScenario)};
  auto scenario = read_scenario(catalog, config);
  if (!scenario) return scenario.error();
  auto deck = deck_cards(*catalog, config.deck, "deck");
  if (!deck) return deck.error();
  RunOptions run = run_options(config);
  // The encounter's own deck, given as a deck, plays the battles of a run without one: the report
  // is that run's too (and merges with its shards). Where side B plays another pack without a
  // deck of its own, it is dealt this deck from that pack: then the deck is named, as what side B
  // was dealt.
  const std::vector<CardId>& encounter_deck =
      catalog->players[catalog->encounters[encounter.value()].player].deck;
  const bool dealt_to_b = versus_catalog != nullptr && config.versus_deck.empty();
  if (!config.deck.empty() && (deck.value() != encounter_deck || dealt_to_b))
    run.policy_settings["deck"] = deck_text(config.deck);
  if (!config.versus_deck.empty()) run.policy_settings["versus_deck"] = deck_text(config.versus_deck);
  const DeckbuilderAdapter adapter(catalog, encounter.value(), config.policy_options,
                                   config.count_enemy_damage, config.scenario, std::move(scenario).value(),
                                   std::move(deck).value(), config.deckbuilder_policies);
  if (config.versus_deck.empty() && versus_catalog == nullptr) return run_simulation(adapter, run);
  // Side B: another deck, another pack, or both.
  const std::shared_ptr<const Catalog>& pack_b = versus_catalog != nullptr ? versus_catalog : catalog;
  auto encounter_b =
      versus_encounter<DeckbuilderRules>(pack_b, catalog->encounters[encounter.value()].id, config);
  if (!encounter_b) return encounter_b.error();
  const bool own_deck = !config.versus_deck.empty();
  auto deck_b = deck_cards(*pack_b, own_deck ? config.versus_deck : config.deck,
                           own_deck ? "versus deck" : "deck, in the versus pack,");
  if (!deck_b) return deck_b.error();
  auto scenario_b = read_scenario(pack_b, config);
  if (!scenario_b) return Error{"the versus pack: " + scenario_b.error().message};
  const DeckbuilderAdapter versus(pack_b, encounter_b.value(), config.policy_options,
                                  config.count_enemy_damage, config.scenario, std::move(scenario_b).value(),
                                  std::move(deck_b).value(), config.deckbuilder_policies);
  return run_simulation(adapter, run, &versus);
}

}  // namespace battlecore::sim
