#pragma once
// What every rule set's monitor adapter has in common: the pack description, the transition
// record in JSON, and the adapter over a loaded catalog that starts battles of one type.

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "battlecore/core/phase_machine.hpp"
#include "battlecore/monitor/rule_set_adapter.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::monitor::detail {

/// The id of the pack's default encounter (its first when the pack names none).
template <class Catalog>
std::string default_encounter_id(const Catalog& catalog) {
  return catalog.pack.default_encounter ? catalog.encounters[*catalog.pack.default_encounter].id
                                        : catalog.encounters.front().id;
}

/// A transition record of `Machine` as {"sequence", "turn", "from", "trigger", "to"}.
template <class Machine>
nlohmann::json transition_json(
    const TransitionRecord<typename Machine::Phase, typename Machine::Trigger>& r) {
  using M = PhaseMachine<Machine>;
  return {{"sequence", r.sequence},
          {"turn", r.turn},
          {"from", M::phase_name(r.from)},
          {"trigger", M::trigger_name(r.trigger)},
          {"to", M::phase_name(r.to)}};
}

/// Actions in their JSON form (the rule set's action_to_json, found by argument-dependent lookup).
template <class Action>
nlohmann::json actions_json(const std::vector<Action>& actions) {
  nlohmann::json out = nlohmann::json::array();
  for (const Action& a : actions) out.push_back(action_to_json(a));
  return out;
}

/// A state hash as the monitor shows it: 16 hex digits.
inline std::string hash_hex(std::uint64_t hash) { return fmt::format("{:016x}", hash); }

/// The replay file of a battle of rule set R (sim::DeckbuilderRules, ...) that began at `start` and
/// took `actions`: sim::record_replay plays them again on a fresh battle, hashing after each.
template <class R>
nlohmann::ordered_json replay_json(const std::shared_ptr<const typename R::Catalog>& catalog,
                                   const sim::BattleStart& start,
                                   std::span<const typename R::Action> actions) {
  auto replay = sim::record_replay<R>(catalog, start, actions);
  if (!replay) throw std::logic_error("the battle's own actions do not replay: " + replay.error().message);
  return sim::replay_to_json(replay.value());
}

/// Parses `action` with `parse` (the rule set's action_from_json) and submits it to `battle`.
/// Returns the action, or the refusal: "bad_action" for JSON that is not an action, else the
/// rules' own reason (refusal_reason_name, found by argument-dependent lookup) and message.
template <class BattleT, class Parse>
auto submit_json(BattleT& battle, const nlohmann::json& action, Parse parse)
    -> Result<std::decay_t<decltype(parse(action).value())>, Refused> {
  auto parsed = parse(action);
  if (!parsed) return Refused{"bad_action", parsed.error().message};
  auto done = battle.submit(parsed.value());
  if (!done) return Refused{std::string(refusal_reason_name(done.error().reason)), done.error().message};
  return parsed.value();
}

/// The adapter of a rule set whose monitor battle is `BattleT`: constructed from the catalog,
/// with `Result<void, Refused> start(encounter id, seed)`, and where its server makes moves,
/// `start(encounter id, seed, server_moves)` (RuleSetAdapter::start_replay).
template <class Machine, class Catalog, class BattleT>
class CatalogAdapter final : public RuleSetAdapter {
 public:
  explicit CatalogAdapter(std::shared_ptr<const Catalog> catalog) : catalog_(std::move(catalog)) {}

  std::string_view rules() const override { return Machine::kRules; }
  PhaseGraph phase_graph() const override { return make_phase_graph<Machine>(); }

  nlohmann::json describe() const override {
    nlohmann::json encounters = nlohmann::json::array();
    for (const auto& e : catalog_->encounters) encounters.push_back({{"id", e.id}, {"name", e.name}});
    return {{"pack", catalog_->pack.id},
            {"encounters", encounters},
            {"default_encounter", default_encounter_id(*catalog_)}};
  }

  Result<std::unique_ptr<MonitorBattle>, Refused> start(std::string_view encounter,
                                                        std::uint64_t seed) const override {
    return start_with(encounter,
                      [&](BattleT& battle, const std::string& id) { return battle.start(id, seed); });
  }

  /// For a battle whose server makes moves: `BattleT::start(id, seed, server_moves)`.
  Result<std::unique_ptr<MonitorBattle>, Refused> start_replay(
      std::string_view encounter, std::uint64_t seed, const ServerMoves& server_moves) const override {
    if constexpr (requires(BattleT & b) { b.start(std::string{}, seed, server_moves); })
      return start_with(encounter, [&](BattleT& battle, const std::string& id) {
        return battle.start(id, seed, server_moves);
      });
    else
      return start(encounter, seed);
  }

 private:
  template <class Start>
  Result<std::unique_ptr<MonitorBattle>, Refused> start_with(std::string_view encounter,
                                                             Start&& start) const {
    auto battle = std::make_unique<BattleT>(catalog_);
    const std::string id = encounter.empty() ? default_encounter_id(*catalog_) : std::string(encounter);
    if (auto started = start(*battle, id); !started) return started.error();
    return std::unique_ptr<MonitorBattle>(std::move(battle));
  }

  std::shared_ptr<const Catalog> catalog_;
};

}  // namespace battlecore::monitor::detail
