// The party rule set's monitor adapter: the state view and decision view of view.hpp, with the
// names the page shows (conditions, items, the companion and the AI ally), the result of an
// ended battle, and what the controls need: the selected member's skills and the party's items
// each with whether it is offered now and, when not, the rules' own refusal. Every decision of a
// party battle is the player's (member turns, the companion, blocks); the AI ally acts by itself.

#include "battlecore/monitor/party_adapter.hpp"

#include <algorithm>

#include "battlecore/party/battle.hpp"
#include "battlecore/party/snapshot.hpp"
#include "battlecore/party/view.hpp"
#include "battlecore/sim/party_rules.hpp"
#include "catalog_adapter.hpp"

namespace battlecore::monitor {

namespace {

namespace pt = battlecore::party;

std::string_view target_kind_name(pt::TargetKind k) {
  switch (k) {
    case pt::TargetKind::Enemy:
      return "enemy";
    case pt::TargetKind::AllEnemies:
      return "all_enemies";
    case pt::TargetKind::Ally:
      return "ally";
    case pt::TargetKind::Self:
      return "self";
    case pt::TargetKind::Party:
      return "party";
  }
  return "?";
}

/// The target a tried action names to learn why it is refused: the first enemy or the member.
std::int8_t trial_target(pt::TargetKind k, std::int8_t member) {
  if (k == pt::TargetKind::Enemy) return 0;
  if (k == pt::TargetKind::Ally) return member;
  return -1;
}

class PartyBattle final : public MonitorBattle {
 public:
  explicit PartyBattle(std::shared_ptr<const pt::Catalog> catalog)
      : catalog_(catalog), battle_(std::move(catalog)) {}

  Result<void, Refused> start(std::string_view encounter, std::uint64_t seed) {
    start_ = {std::string(encounter), seed, nullptr};
    auto started = battle_.start_battle(encounter, seed);
    if (!started) return Refused{"unknown_encounter", started.error().message};
    return {};
  }

  nlohmann::json state() const override {
    nlohmann::json j = pt::state_view(battle_);
    j["over"] = battle_.is_battle_over();
    j["won"] = battle_.is_battle_over() ? nlohmann::json(battle_.won()) : nlohmann::json(nullptr);
    j["result"] = nullptr;
    if (!battle_.started()) return j;
    const pt::Catalog& c = battle_.catalog();
    const pt::BattleState& s = battle_.state();
    const pt::EncounterDef& enc = c.encounters[s.encounter];
    if (battle_.is_battle_over())
      j["result"] = battle_.phase() == pt::Phase::Victory ? "victory"
                    : battle_.phase() == pt::Phase::Fled  ? "fled"
                                                          : "defeat";
    j["encounter_name"] = enc.name;
    j["can_flee"] = enc.can_flee;
    for (auto& m : j["members"]) {
      const pt::MemberState& ms = s.members[m["index"].get<std::size_t>()];
      m["conditions"] = conditions(ms.conditions);
      m["selected"] = s.current == m["index"].get<int>();
    }
    for (auto& e : j["enemies"])
      e["conditions"] = conditions(s.enemies[e["slot"].get<std::size_t>()].conditions);
    for (auto& it : j["items"]) {
      const pt::ItemDef& def = c.items[s.items[it["slot"].get<std::size_t>()].item];
      it["name"] = def.name;
      it["target"] = target_kind_name(def.target);
    }
    const pt::PartyDef& party = c.parties[enc.party];
    if (party.companion) {
      const pt::CompanionDef& comp = c.companions[*party.companion];
      j["companion"]["name"] = comp.name;
      j["companion"]["special"] = comp.special_name;
      j["companion"]["special_cost"] = comp.special_cost;
    }
    if (party.ally) j["ally"]["name"] = c.allies[*party.ally].name;
    return j;
  }

  nlohmann::json decision() const override {
    nlohmann::json j = pt::decision_view(battle_);
    j["status"] = status_name(battle_.status());
    const pt::Decision d = battle_.decision();
    const pt::BattleState& s = battle_.state();
    const pt::Catalog& c = battle_.catalog();
    j["member"] =
        d.kind == pt::DecisionKind::MemberTurn ? nlohmann::json(s.current) : nlohmann::json(nullptr);
    const auto offered = [&](pt::ActionKind kind, std::size_t index) {
      return std::any_of(d.options.begin(), d.options.end(),
                         [&](const pt::Action& a) { return a.kind == kind && a.index == index; });
    };
    // Why an action the decision does not offer would be refused, from the rules themselves.
    pt::Battle trial = battle_;
    const auto refusal = [&](const pt::Action& a) -> std::string {
      if (d.kind != pt::DecisionKind::MemberTurn) return "not a member's turn";
      auto done = trial.submit(a);
      if (done) {  // accepted after all: not an option at the moment, and the trial starts over
        trial = battle_;
        return "not offered now";
      }
      return done.error().message;
    };
    nlohmann::json skills = nlohmann::json::array();
    nlohmann::json items = nlohmann::json::array();
    if (d.kind == pt::DecisionKind::MemberTurn) {
      const pt::MemberDef& member = c.members[s.members[static_cast<std::size_t>(s.current)].def];
      for (std::size_t i = 0; i < member.skills.size(); ++i) {
        const pt::SkillDef& sk = c.skills[member.skills[i]];
        const bool ok = offered(pt::ActionKind::Skill, i);
        skills.push_back({{"index", i},
                          {"name", sk.name},
                          {"cost", sk.cost},
                          {"pays", sk.cost_in_hp ? "HP" : "TP"},
                          {"target", target_kind_name(sk.target)},
                          {"offered", ok},
                          {"reason", ok ? ""
                                        : refusal(pt::Action::skill(static_cast<std::uint8_t>(i),
                                                                    trial_target(sk.target, s.current)))}});
      }
      for (std::size_t i = 0; i < s.items.size(); ++i) {
        const pt::ItemDef& it = c.items[s.items[i].item];
        const bool ok = offered(pt::ActionKind::Item, i);
        items.push_back({{"slot", i},
                         {"name", it.name},
                         {"count", s.items[i].count},
                         {"target", target_kind_name(it.target)},
                         {"offered", ok},
                         {"reason", ok ? ""
                                       : refusal(pt::Action::item(static_cast<std::uint8_t>(i),
                                                                  trial_target(it.target, s.current)))}});
      }
    }
    j["skills"] = skills;
    j["items"] = items;
    if (d.kind == pt::DecisionKind::Block) {
      const pt::EnemyActionCursor& cur = s.enemy_action;
      for (const pt::EnemyState& e : s.enemies)
        if (e.uid == cur.enemy_uid) {
          const pt::EnemyDef& def = c.enemies[e.def];
          j["block"] = {{"enemy", def.name},
                        {"move", def.move_list[cur.move].name},
                        {"member", cur.targets[cur.target_pos]}};
        }
    }
    return j;
  }

  Result<void, Refused> submit(const nlohmann::json& action) override {
    auto done = detail::submit_json(battle_, action, &pt::action_from_json);
    if (!done) return done.error();
    return {};
  }

  std::size_t event_count() const override { return battle_.events().log().size(); }
  nlohmann::json event(std::size_t i) const override {
    return pt::event_to_json(battle_.events().log()[i], battle_.catalog());
  }
  std::size_t transition_count() const override { return battle_.history().size(); }
  nlohmann::json transition(std::size_t i) const override {
    return detail::transition_json<pt::Machine>(battle_.history()[i]);
  }
  nlohmann::json actions() const override { return detail::actions_json(battle_.actions()); }
  std::string state_hash() const override { return detail::hash_hex(battle_.state_hash()); }
  nlohmann::json engine_snapshot() const override { return pt::snapshot(battle_); }
  nlohmann::ordered_json replay() const override {
    return detail::replay_json<sim::PartyRules>(catalog_, start_, battle_.actions());
  }

  /// "members": every member's definition (attack, defense, reach, skills with their costs).
  std::optional<nlohmann::json> detail(std::string_view name) const override {
    if (name != "members") return std::nullopt;
    const pt::Catalog& c = battle_.catalog();
    nlohmann::json members = nlohmann::json::array();
    for (const pt::MemberState& m : battle_.state().members) {
      const pt::MemberDef& def = c.members[m.def];
      nlohmann::json skills = nlohmann::json::array();
      for (pt::SkillId id : def.skills)
        skills.push_back({{"id", c.skills[id].id},
                          {"name", c.skills[id].name},
                          {"cost", c.skills[id].cost},
                          {"pays", c.skills[id].cost_in_hp ? "HP" : "TP"}});
      members.push_back({{"id", def.id},
                         {"name", def.name},
                         {"attack", def.attack},
                         {"defense", def.defense},
                         {"reach", def.reach == pt::Reach::Any ? "any" : "ground"},
                         {"skills", skills}});
    }
    return nlohmann::json{{"members", members}};
  }

 private:
  nlohmann::json conditions(const pt::Conditions& conds) const {
    const pt::Catalog& c = battle_.catalog();
    nlohmann::json out = nlohmann::json::array();
    for (const pt::ConditionSlot& slot : conds)
      out.push_back({{"id", c.conditions[slot.condition].id},
                     {"name", c.conditions[slot.condition].name},
                     {"turns", slot.turns}});
    return out;
  }

  std::shared_ptr<const pt::Catalog> catalog_;
  sim::BattleStart start_;  ///< the encounter and seed, for the replay
  pt::Battle battle_;
};

}  // namespace

std::shared_ptr<const RuleSetAdapter> make_party_adapter(std::shared_ptr<const party::Catalog> catalog) {
  return std::make_shared<detail::CatalogAdapter<pt::Machine, pt::Catalog, PartyBattle>>(std::move(catalog));
}

}  // namespace battlecore::monitor
