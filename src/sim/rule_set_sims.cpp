// The clash and party adapters for the generic runner (battlecore/sim/runner.hpp): how to play
// one battle of each with its policies and what to write down about it.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "battlecore/clash/actions.hpp"
#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/scenario.hpp"
#include "battlecore/party/actions.hpp"
#include "battlecore/party/battle.hpp"
#include "battlecore/party/policies.hpp"
#include "battlecore/party/scenario.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "battlecore/sim/runner.hpp"
#include "battlecore/sim/simulate.hpp"
#include "sim/sim_support.hpp"

namespace battlecore::sim {

namespace {

/// Plays one battle to its end: `choose(battle, options)` answers every decision.
template <class Battle, class Action, class Choose>
void play_out(Battle& battle, std::vector<Action>& options, std::vector<Action>& actions, BattleRecord& out,
              Choose&& choose) {
  while (battle.status() == Status::AwaitingDecision) {
    battle.legal_actions(options);
    const Action action = options[policy_choice(options.size(), [&] { return choose(battle, options); })];
    actions.push_back(action);
    ++out.decisions;
    const auto applied = battle.submit(action);
    BATTLECORE_ENSURE(applied.ok(), "a legal option was refused: {}",
                      applied.ok() ? "" : applied.error().message);
  }
  BATTLECORE_ENSURE(battle.is_battle_over(), "the battle stopped before its end");
}

/// A run's scenario document, made once for all its battles (none when `scenario` is null).
std::optional<content::JsonDocument> scenario_document(const nlohmann::json& scenario) {
  if (scenario.is_null()) return std::nullopt;
  return content::JsonDocument{"scenario", scenario.dump(2), scenario};
}

/// Starts `battle` for `seed`: at the encounter, or from `scenario` (with that seed) with
/// `start_scenario` (the rule set's) when there is one (the battle is then replaced: true, and
/// its event listeners must be attached again).
template <class Battle, class Catalog, class Options, class StartScenario>
bool start_battle(Battle& battle, const std::shared_ptr<const Catalog>& catalog, std::uint32_t encounter,
                  std::uint64_t seed, const std::optional<content::JsonDocument>& scenario, Options quiet,
                  StartScenario start_scenario) {
  if (!scenario) {
    const auto started =
        battle.start_battle(static_cast<decltype(battle.state().encounter)>(encounter), seed);
    BATTLECORE_ENSURE(started.ok(), "the battle did not start: {}",
                      started.ok() ? "" : started.error().message);
    return false;
  }
  auto started = start_scenario(catalog, *scenario, seed, quiet);
  BATTLECORE_ENSURE(started.ok(), "the battle did not start: the scenario is refused:\n{}",
                    started.ok() ? "" : started.error().to_string());
  battle = std::move(started).value();
  return true;
}

template <class Action>
nlohmann::json actions_to_json(const std::vector<Action>& actions) {
  nlohmann::json out = nlohmann::json::array();
  for (const Action& a : actions) out.push_back(action_to_json(a));
  return out;
}

// --- clash --------------------------------------------------------------------------------

constexpr clash::BattleOptions kClashQuiet{.event_log = false, .record_history = false};

/// Seat 0 plays the run's policy (A, or B in the versus run); every other seat plays the
/// policy simulate_clash resolved for it (its own, or --policy).
class ClashAdapter {
 public:
  ClashAdapter(std::shared_ptr<const clash::Catalog> catalog, clash::EncounterId encounter,
               std::vector<std::string> seat_policies, nlohmann::json scenario, UctOptions options,
               std::vector<PolicyMaker<clash::Policy>> own_policies)
      : catalog_(std::move(catalog)),
        encounter_(encounter),
        seat_policies_(std::move(seat_policies)),
        scenario_(scenario_document(scenario)),
        options_(options),
        own_policies_(std::move(own_policies)) {}

  class Player {
   public:
    Player(std::shared_ptr<const clash::Catalog> catalog, clash::EncounterId encounter,
           std::vector<std::unique_ptr<clash::Policy>> policies,
           const std::optional<content::JsonDocument>& scenario)
        : catalog_(std::move(catalog)),
          encounter_(encounter),
          scenario_(scenario),
          policies_(std::move(policies)),
          battle_(catalog_, kClashQuiet) {
      options_.reserve(16);
      actions_.reserve(256);
    }

    void play(std::uint64_t seed, BattleRecord& out) {
      out.clear();
      actions_.clear();
      for (std::size_t s = 0; s < policies_.size(); ++s)
        policies_[s]->reset(splitmix64_mix(policy_seed(seed) + s));
      start_battle(battle_, catalog_, encounter_, seed, scenario_, kClashQuiet, [](auto&&... args) {
        return clash::start_scenario(std::forward<decltype(args)>(args)...);
      });
      play_out(battle_, options_, actions_, out,
               [&](const clash::Battle& b, const std::vector<clash::Action>& o) {
                 return policies_[std::min(static_cast<std::size_t>(b.state().current), policies_.size() - 1)]
                     ->choose(b, o);
               });
      const clash::BattleState& s = battle_.state();
      std::size_t firsts = 0;
      for (const clash::SeatState& seat : s.seats) {
        out.places.push_back(seat.place);
        firsts += seat.place == 1 ? 1 : 0;
      }
      out.won = s.seats[0].place == 1 && firsts == 1;
      out.turns = s.round;
      out.hp_left = out.won ? static_cast<std::uint32_t>(std::max(0, s.seats[0].health)) : 0;
      out.counters.assign(1, firsts > 1 ? 1 : 0);  // shared_first
    }
    nlohmann::json actions_json() const { return actions_to_json(actions_); }
    void recover() { battle_ = clash::Battle(catalog_, kClashQuiet); }

   private:
    std::shared_ptr<const clash::Catalog> catalog_;
    clash::EncounterId encounter_;
    const std::optional<content::JsonDocument>& scenario_;  ///< the adapter's
    std::vector<std::unique_ptr<clash::Policy>> policies_;  ///< per seat
    clash::Battle battle_;
    std::vector<clash::Action> options_;
    std::vector<clash::Action> actions_;
  };

  void describe(SimReport& header) const {
    const clash::EncounterDef& def = catalog_->encounters[encounter_];
    header.rules = "clash";
    header.encounter = def.id;
    header.content_hash = catalog_->content_hash;
    for (std::size_t s = 0; s < def.seats.size(); ++s) {
      header.seat_names.push_back(def.seats[s].name);
      header.seat_kinds.emplace_back(clash::seat_kind_name(def.seats[s].kind));
      header.seat_policies.push_back(s == 0 ? std::string() : seat_policies_[s]);
    }
    header.counter_names = {"shared_first"};
  }

  Result<std::unique_ptr<Player>> make_player(std::string_view policy) const {
    std::vector<std::unique_ptr<clash::Policy>> policies;
    for (std::size_t s = 0; s < seat_policies_.size(); ++s) {
      auto made =
          make_named_policy(s == 0 ? policy : std::string_view(seat_policies_[s]), own_policies_,
                            [&](std::string_view name) { return clash::make_policy(name, options_); });
      if (!made) return made.error();
      policies.push_back(std::move(made.value()));
    }
    return std::make_unique<Player>(catalog_, encounter_, std::move(policies), scenario_);
  }

 private:
  std::shared_ptr<const clash::Catalog> catalog_;
  clash::EncounterId encounter_;
  std::vector<std::string> seat_policies_;  ///< per seat; [0] is unused (the run's policy)
  std::optional<content::JsonDocument> scenario_;
  UctOptions options_;
  std::vector<PolicyMaker<clash::Policy>> own_policies_;
};

// --- party --------------------------------------------------------------------------------

constexpr party::BattleOptions kPartyQuiet{.event_log = false, .record_history = false};

class PartyAdapter {
 public:
  PartyAdapter(std::shared_ptr<const party::Catalog> catalog, party::EncounterId encounter,
               party::BlockSkill block, nlohmann::json scenario, UctOptions options, bool count_enemy_damage,
               std::vector<PolicyMaker<party::Policy>> own_policies)
      : catalog_(std::move(catalog)),
        encounter_(encounter),
        block_(block),
        scenario_(scenario_document(scenario)),
        options_(options),
        count_enemy_damage_(count_enemy_damage),
        own_policies_(std::move(own_policies)) {}

  class Player {
   public:
    Player(std::shared_ptr<const party::Catalog> catalog, party::EncounterId encounter,
           std::unique_ptr<party::Policy> policy, const std::optional<content::JsonDocument>& scenario,
           bool count_enemy_damage)
        : catalog_(std::move(catalog)),
          encounter_(encounter),
          count_enemy_damage_(count_enemy_damage),
          scenario_(scenario),
          policy_(std::move(policy)),
          battle_(catalog_, kPartyQuiet) {
      battle_.events().attach(&damage_);
      options_.reserve(64);
      actions_.reserve(256);
    }
    Player(const Player&) = delete;
    Player& operator=(const Player&) = delete;

    void play(std::uint64_t seed, BattleRecord& out) {
      out.clear();
      actions_.clear();
      damage_.clear();
      policy_->reset(policy_seed(seed));
      if (start_battle(battle_, catalog_, encounter_, seed, scenario_, kPartyQuiet, [](auto&&... args) {
            return party::start_scenario(std::forward<decltype(args)>(args)...);
          }))
        battle_.events().attach(&damage_);
      for (const party::EnemyState& e : battle_.state().enemies) damage_.joined(e.uid, e.def);
      play_out(
          battle_, options_, actions_, out,
          [&](const party::Battle& b, const std::vector<party::Action>& o) { return policy_->choose(b, o); });
      const party::BattleState& s = battle_.state();
      std::uint32_t hp = 0;
      for (const party::MemberState& m : s.members) hp += static_cast<std::uint32_t>(std::max(0, m.hp));
      const party::Phase end = battle_.phase();
      out.won = end == party::Phase::Victory;
      out.turns = s.main_turns;
      out.hp_left = out.won ? hp : 0;
      out.counters = {end == party::Phase::Defeat ? 1u : 0u, end == party::Phase::Fled ? 1u : 0u, hp};
      for (std::size_t u = 0; u < damage_.defs.size(); ++u) {
        out.enemies.push_back(damage_.defs[u]);
        if (!count_enemy_damage_) continue;  // --no-enemy-damage: the battle counts alone
        out.enemy_damage.push_back(damage_.hp[u]);
        out.enemy_armor.push_back(0);
      }
    }
    nlohmann::json actions_json() const { return actions_to_json(actions_); }
    void recover() {
      battle_ = party::Battle(catalog_, kPartyQuiet);
      battle_.events().attach(&damage_);
    }

   private:
    /// Per enemy of the battle, by its battle-wide number: its definition and the HP its
    /// attacks took from the party.
    struct DamageCounter final : party::Listener {
      std::vector<std::uint32_t> defs;
      std::vector<std::uint64_t> hp;
      void clear() {
        defs.clear();
        hp.clear();
      }
      void joined(std::uint8_t uid, std::uint32_t def) {
        if (defs.size() <= uid) {
          defs.resize(uid + 1u, 0);
          hp.resize(uid + 1u, 0);
        }
        defs[uid] = def;
      }
      /// The two types on_event reads: the other events of the battle are not delivered.
      std::uint64_t interest() const override {
        return event_bit(party::EventType::ReserveJoined) | event_bit(party::EventType::Damaged);
      }
      void on_event(const party::Event& e) override {
        if (e.type == party::EventType::ReserveJoined && party::is_enemy_actor(e.target))
          joined(static_cast<std::uint8_t>(e.target - party::enemy_actor(0)), e.value);
        else if (e.type == party::EventType::Damaged && party::is_enemy_actor(e.source) &&
                 !party::is_enemy_actor(e.target)) {
          const auto uid = static_cast<std::size_t>(e.source - party::enemy_actor(0));
          if (uid < hp.size()) hp[uid] += static_cast<std::uint64_t>(std::max(0, e.amount));
        }
      }
    };

    std::shared_ptr<const party::Catalog> catalog_;
    party::EncounterId encounter_;
    bool count_enemy_damage_;
    const std::optional<content::JsonDocument>& scenario_;  ///< the adapter's
    std::unique_ptr<party::Policy> policy_;
    party::Battle battle_;
    DamageCounter damage_;
    std::vector<party::Action> options_;
    std::vector<party::Action> actions_;
  };

  void describe(SimReport& header) const {
    header.rules = "party";
    header.encounter = catalog_->encounters[encounter_].id;
    header.content_hash = catalog_->content_hash;
    for (const party::EnemyDef& e : catalog_->enemies) header.enemy_ids.push_back(e.id);
    header.counter_names = {"defeats", "fled", "party_hp_left"};
    header.enemy_damage_counted = count_enemy_damage_;
    header.settings = {{"block_percent", block_.block_percent},
                       {"super_block_percent", block_.super_block_percent}};
  }

  Result<std::unique_ptr<Player>> make_player(std::string_view policy) const {
    auto made = make_named_policy(policy, own_policies_, [&](std::string_view name) {
      return party::make_policy(name, block_, options_);
    });
    if (!made) return made.error();
    return std::make_unique<Player>(catalog_, encounter_, std::move(made.value()), scenario_,
                                    count_enemy_damage_);
  }

 private:
  std::shared_ptr<const party::Catalog> catalog_;
  party::EncounterId encounter_;
  party::BlockSkill block_;
  std::optional<content::JsonDocument> scenario_;
  UctOptions options_;
  bool count_enemy_damage_;
  std::vector<PolicyMaker<party::Policy>> own_policies_;
};

/// A deck is the deckbuilder's setting: the other rule sets refuse it rather than ignore it.
Result<void> no_deck(const SimConfig& config, std::string_view rules) {
  if (config.deck.empty() && config.versus_deck.empty()) return {};
  return Error{fmt::format("a deck is a deckbuilder setting; the {} rule set has none", rules)};
}

}  // namespace

Result<SimReport> simulate_clash(const std::shared_ptr<const clash::Catalog>& catalog, const SimConfig& asked,
                                 const std::vector<std::string>& seat_policies,
                                 const std::shared_ptr<const clash::Catalog>& versus_catalog) {
  const auto encounter = resolve_encounter(*catalog, asked.encounter, asked.scenario);
  if (!encounter) return encounter.error();
  if (auto checked = check_own_policies(asked.clash_policies, clash::policy_names()); !checked)
    return checked.error();
  const SimConfig config = with_scenario_encounter(asked, catalog->encounters[encounter.value()].id);
  if (auto checked = check_scenario<ClashRules>(catalog, catalog->encounters[encounter.value()].id, config);
      !checked)
    return checked.error();
  if (auto checked = no_deck(config, "clash"); !checked) return checked.error();
  const std::size_t seats = catalog->encounters[encounter.value()].seats.size();
  if (seat_policies.size() > seats)
    return Error{fmt::format("encounter '{}' has {} seats; a policy was given for seat {}",
                             catalog->encounters[encounter.value()].id, seats, seat_policies.size() - 1)};
  std::vector<std::string> policies(seats, config.policy);
  for (std::size_t s = 0; s < seat_policies.size(); ++s)
    if (!seat_policies[s].empty()) policies[s] = seat_policies[s];
  std::optional<std::remove_cvref_t<decltype(encounter.value())>> encounter_b;
  if (versus_catalog != nullptr) {
    const auto found =
        versus_encounter<ClashRules>(versus_catalog, catalog->encounters[encounter.value()].id, config);
    if (!found) return found.error();
    encounter_b = found.value();
  }
  // Side B's seats are its own encounter's: seats side A lacks play the run's policy, and the
  // runner refuses the pair when the two seat tables differ.
  std::vector<std::string> policies_b = policies;
  if (encounter_b) policies_b.resize(versus_catalog->encounters[*encounter_b].seats.size(), config.policy);
  RunOptions run = run_options(config);
  run.policy = policies[0];  // seat 0 plays the run's policy A
  // The mcts settings are the run's when a seat of either side plays mcts: --policy mcts with
  // every seat given another policy plays none, and the report then names no mcts settings.
  const bool mcts_plays = std::ranges::count(policies, "mcts") + std::ranges::count(policies_b, "mcts") > 0 ||
                          config.versus_policy == "mcts";
  if (!mcts_plays) {
    if (config.policy_options_given)
      return Error{
          "--mcts-iterations and --mcts-exploration tune the mcts policy, and no seat plays it "
          "(--seat-policy gives every seat another policy)"};
    run.policy_settings.erase("mcts_iterations");
    run.policy_settings.erase("mcts_exploration");
  }
  for (const std::string& p : policies) note_policy_settings(run, config, {p});
  const ClashAdapter adapter(catalog, encounter.value(), policies, config.scenario, config.policy_options,
                             config.clash_policies);
  if (!encounter_b) return run_simulation(adapter, run);
  const ClashAdapter versus(versus_catalog, *encounter_b, std::move(policies_b), config.scenario,
                            config.policy_options, config.clash_policies);
  return run_simulation(adapter, run, &versus);
}

Result<SimReport> simulate_party(const std::shared_ptr<const party::Catalog>& catalog, const SimConfig& asked,
                                 party::BlockSkill block,
                                 const std::shared_ptr<const party::Catalog>& versus_catalog) {
  const auto encounter = resolve_encounter(*catalog, asked.encounter, asked.scenario);
  if (!encounter) return encounter.error();
  if (auto checked = check_own_policies(asked.party_policies, party::policy_names()); !checked)
    return checked.error();
  const SimConfig config = with_scenario_encounter(asked, catalog->encounters[encounter.value()].id);
  if (auto checked = check_scenario<PartyRules>(catalog, catalog->encounters[encounter.value()].id, config);
      !checked)
    return checked.error();
  if (auto checked = no_deck(config, "party"); !checked) return checked.error();
  if (block.super_block_percent > block.block_percent || block.block_percent > 100)
    return Error{"block rates must satisfy super block <= block <= 100 percent"};
  const PartyAdapter adapter(catalog, encounter.value(), block, config.scenario, config.policy_options,
                             config.count_enemy_damage, config.party_policies);
  const RunOptions run = run_options(config);
  if (versus_catalog == nullptr) return run_simulation(adapter, run);
  const auto encounter_b =
      versus_encounter<PartyRules>(versus_catalog, catalog->encounters[encounter.value()].id, config);
  if (!encounter_b) return encounter_b.error();
  const PartyAdapter versus(versus_catalog, encounter_b.value(), block, config.scenario,
                            config.policy_options, config.count_enemy_damage, config.party_policies);
  return run_simulation(adapter, run, &versus);
}

}  // namespace battlecore::sim
