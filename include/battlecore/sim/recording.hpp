#pragma once
/// Recording a batch run (`battlecore sim --record DIR`, `--record-failures`): an after-battle
/// hook for the runner (runner.hpp) that writes each battle's replay, for any rule set R
/// (battlecore/sim/deckbuilder_rules.hpp is the deckbuilder's adapter). Battle i keeps its seed
/// battle_seed(seed, i) and its policy seed, so a run plays the same battles recorded or not,
/// on any number of threads.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/core/result.hpp"
#include "battlecore/sim/replay.hpp"
#include "battlecore/sim/runner.hpp"

namespace battlecore::sim {

/// The file name of battle `index`'s replay: battle-000042.json.
inline std::string replay_file_name(std::uint64_t index) { return fmt::format("battle-{:06}.json", index); }

/// Writes the replay of every battle (or, with `failures_only`, of every battle that hit an
/// engine error) into `dir`, which must exist, as replay_file_name(index). The battles start at
/// `encounter` with their own seed, from `scenario` when it is not null, with `deck` as the
/// master deck when it is not empty (BattleStart::deck). Thread-safe: each battle writes its
/// own file. A file that cannot be written stops the run with that error and, when `unwritten`
/// is not null, sets it (`sim --record` then exits 3, as for other output that is lost).
template <class R>
AfterBattle replay_writer(std::shared_ptr<const typename R::Catalog> catalog, std::string encounter,
                          nlohmann::json scenario, std::filesystem::path dir, bool failures_only,
                          std::vector<std::string> deck = {}, std::atomic<bool>* unwritten = nullptr) {
  return [catalog = std::move(catalog), encounter = std::move(encounter), scenario = std::move(scenario),
          dir = std::move(dir), failures_only, deck = std::move(deck),
          unwritten](std::uint64_t index, std::uint64_t seed, const nlohmann::json& actions_json,
                     const SimFailure* failure) -> Result<void> {
    if (failures_only && failure == nullptr) return {};
    const bool while_choosing = failure != nullptr && failure->while_choosing;
    // A battle that broke while starting has nothing to replay; one whose policy broke while
    // choosing is replayed to that choice.
    if (failure != nullptr && !while_choosing && actions_json.empty()) return {};
    std::vector<typename R::Action> actions;
    actions.reserve(actions_json.size());
    for (const nlohmann::json& j : actions_json) {
      auto action = R::action_from_json(j);
      if (!action)
        return Error{fmt::format("battle {}: action {} cannot be read back: {}", index, j.dump(),
                                 action.error().message)};
      actions.push_back(action.value());
    }
    auto replay = record_replay<R>(catalog, BattleStart{encounter, seed, scenario, deck}, actions);
    if (!replay)
      return Error{fmt::format("battle {}: cannot record its replay: {}", index, replay.error().message)};
    if (while_choosing && !replay.value().engine_error) replay.value().policy_error = failure->message;
    auto written = write_replay(dir / replay_file_name(index), replay.value());
    if (!written && unwritten != nullptr) *unwritten = true;
    return written;
  };
}

}  // namespace battlecore::sim
