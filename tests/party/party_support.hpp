#pragma once
// Shared helpers of the party tests: the test packs, starting battles, compact event traces.

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "battlecore/party/battle.hpp"
#include "battlecore/party/load.hpp"
#include "party/mechanics.hpp"

namespace battlecore::party::test {

inline std::shared_ptr<const Catalog> load_or_throw(const std::filesystem::path& path) {
  auto loaded = load_catalog(path);
  if (!loaded) throw std::runtime_error(loaded.error().to_string());
  return loaded.value();
}

/// tests/data/party/rules: small encounters, one per rule under test.
inline std::shared_ptr<const Catalog> rules_pack() {
  static const auto pack = load_or_throw(std::filesystem::path(BATTLECORE_TEST_DATA_DIR) / "party" / "rules");
  return pack;
}

/// The bundled pack data/party/meadow.
inline std::shared_ptr<const Catalog> meadow_pack() {
  static const auto pack = load_or_throw(std::filesystem::path(BATTLECORE_DATA_DIR) / "party" / "meadow");
  return pack;
}

inline Battle start(const std::string& encounter, std::uint64_t seed = 1,
                    const std::shared_ptr<const Catalog>& catalog = rules_pack()) {
  Battle b(catalog);
  auto r = b.start_battle(encounter, seed);
  if (!r) throw std::runtime_error(r.error().message);
  return b;
}

inline void submit_ok(Battle& b, const Action& a) {
  auto r = b.submit(a);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

inline std::string actor_name(const Battle& b, ActorRef a) {
  if (a == kNobody) return "nobody";
  if (a == kCompanionActor) return "companion";
  if (a == kAllyActor) return "ally";
  if (is_member_actor(a)) return b.catalog().members[b.state().members[static_cast<std::size_t>(a)].def].id;
  return "enemy#" + std::to_string(a - 16);
}

/// One short line per event: "select ann", "ann attack", "enemy#0 poke", "phase A->B", ...
inline std::string describe(const Battle& b, const Event& e) {
  const Catalog& c = b.catalog();
  switch (e.type) {
    case EventType::PhaseChanged:
      return "phase " + std::string(phase_name(static_cast<Phase>(e.subject))) + "->" +
             std::string(phase_name(static_cast<Phase>(e.value)));
    case EventType::MainTurnStarted:
      return "turn " + std::to_string(e.amount);
    case EventType::MemberSelected:
      return "select " + actor_name(b, e.source);
    case EventType::ActionTaken:
      return actor_name(b, e.source) + " " +
             std::string(action_kind_name(static_cast<ActionKind>(e.subject)));
    case EventType::Relayed:
      return "relay " + actor_name(b, e.source) + "->" + actor_name(b, e.target);
    case EventType::EnemyActed:
      return actor_name(b, e.source) + " " +
             (e.subject < c.enemies[e.value].move_list.size() ? c.enemies[e.value].move_list[e.subject].id
                                                              : "flipped");
    case EventType::Damaged:
      return "damage " + actor_name(b, e.target) + " " + std::to_string(e.amount);
    case EventType::Healed:
      return (e.extra == 1 ? "tp +" : "heal " + actor_name(b, e.target) + " +") + std::to_string(e.amount);
    case EventType::ConditionApplied:
      return "apply " + c.conditions[e.subject].id + " " + actor_name(b, e.target) + " " +
             std::to_string(e.amount);
    case EventType::ConditionResisted:
      return "resist " + c.conditions[e.subject].id + " " + actor_name(b, e.target);
    case EventType::ConditionExpired:
      return "expire " + c.conditions[e.subject].id + " " + actor_name(b, e.target);
    case EventType::Blocked:
      return "block " + actor_name(b, e.target) + " " + std::to_string(e.amount);
    case EventType::Fled:
      return std::string("flee ") + (e.amount ? "success" : "failure");
    case EventType::TurnAdvanced:
      return "advance " + std::to_string(e.amount);
    case EventType::ActorDown:
      return "down " + actor_name(b, e.target);
    case EventType::ReserveJoined:
      return "join " + actor_name(b, e.target) + " " + c.enemies[e.value].id;
    case EventType::InactionFailsafe:
      return "failsafe";
    case EventType::BattleEnded:
      return std::string("end ") + (e.amount == 0 ? "victory" : e.amount == 1 ? "defeat" : "fled");
  }
  return "?";
}

/// The events from index `from` on, described; only the given types when `only` is not empty.
inline std::vector<std::string> trace(const Battle& b, std::size_t from = 0,
                                      std::vector<EventType> only = {}) {
  std::vector<std::string> out;
  const auto& log = b.events().log();
  for (std::size_t i = from; i < log.size(); ++i) {
    if (!only.empty() && std::find(only.begin(), only.end(), log[i].type) == only.end()) continue;
    out.push_back(describe(b, log[i]));
  }
  return out;
}

inline ConditionId cond(const char* id) { return *rules_pack()->find_condition(id); }

/// Applies a condition without a roll, as content would with "apply".
inline void give(Battle& b, ActorRef target, const char* condition, std::int32_t turns) {
  Battle::Access x = Battle::Access::of(b);
  detail::apply_condition(x, kNobody, target, cond(condition), turns, false);
}

}  // namespace battlecore::party::test
