#include "battlecore/deckbuilder/battle.hpp"

#include <fmt/format.h>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/phases.hpp"

namespace battlecore::deckbuilder {

std::int32_t UnitState::stacks(StatusId status) const {
  for (const StatusStack& st : statuses)
    if (st.status == status) return st.stacks;
  return 0;
}

Battle::Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options)
    : catalog_(std::move(catalog)), options_(options) {
  BATTLECORE_ENSURE(catalog_ != nullptr, "a battle needs a catalog{}", "");
  events_.set_log_enabled(options_.event_log);
  driver_.set_record_history(options_.record_history);
}

// --- starting ---------------------------------------------------------------------------

Result<Status> Battle::start_battle(std::string_view encounter_id, std::uint64_t seed) {
  const auto id = catalog_->find_encounter(encounter_id);
  if (!id) return Error{fmt::format("no encounter '{}' in pack '{}'", encounter_id, catalog_->pack.id)};
  return start_battle(*id, seed);
}

Result<Status> Battle::start_battle(EncounterId encounter, std::uint64_t seed) {
  if (encounter >= catalog_->encounters.size())
    return Error{fmt::format("no encounter with index {} (the pack has {})", encounter, catalog_->encounters.size())};
  if (is_battle_active()) return Error{"a battle is already in progress; it must end before another starts"};
  driver_.reset();
  events_.clear_log();
  actions_.clear();
  state_ = BattleState{};
  state_.seed = seed;
  state_.encounter = encounter;
  pending_trigger_ = Trigger::StartRequested;
  has_pending_trigger_ = true;
  return advance();
}

// --- the driver -------------------------------------------------------------------------

Status Battle::advance() {
  Access x = Access::of(*this);
  while (has_pending_trigger_) {
    has_pending_trigger_ = false;
    const Phase from = driver_.current();
    const Trigger trigger = pending_trigger_;
    const Phase to = driver_.fire(trigger, state_.turn);
    events_.emit_with([&] {
      return Event{.type = EventType::PhaseChanged,
                   .subject = static_cast<std::uint16_t>(from),
                   .value = static_cast<std::uint16_t>(to),
                   .amount = static_cast<std::int32_t>(trigger)};
    });
    if (const std::optional<Trigger> next = detail::run_phase(x, to)) {
      pending_trigger_ = *next;
      has_pending_trigger_ = true;
    }
  }
  return status();
}

Status Battle::status() const {
  return phase() == Phase::PlayerPhase ? Status::AwaitingDecision : Status::Finished;
}

bool Battle::is_battle_active() const {
  const Phase p = phase();
  return p != Phase::None && p != Phase::BattleWon && p != Phase::BattleLost;
}

bool Battle::is_battle_over() const { return phase() == Phase::BattleWon || phase() == Phase::BattleLost; }

// --- decisions --------------------------------------------------------------------------

void Battle::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (phase() != Phase::PlayerPhase) return;
  for (CardRef card : state_.hand) {
    if (can_play_card(card) != PlayCheck::Ok) continue;
    if (catalog_->cards[state_.cards[card].def].target == CardTarget::Enemy) {
      for (std::size_t e = 0; e < state_.enemies.size(); ++e)
        if (state_.enemies[e].unit.alive()) out.push_back(Action::play(card, static_cast<std::int8_t>(e)));
    } else {
      out.push_back(Action::play(card));
    }
  }
  out.push_back(Action::end_turn());
}

Decision Battle::decision() const {
  Decision d;
  if (status() == Status::AwaitingDecision) d.who = Decider{Decider::Kind::Player, 0};
  legal_actions(d.options);
  return d;
}

PlayCheck Battle::can_play_card(CardRef card) const {
  if (phase() != Phase::PlayerPhase) return PlayCheck::WrongPhase;
  if (card >= state_.cards.size()) return PlayCheck::NullCard;
  if (state_.player.max_hp <= 0) return PlayCheck::MissingPlayer;
  bool in_hand = false;
  for (CardRef c : state_.hand) in_hand |= c == card;
  if (!in_hand) return PlayCheck::NotInHand;
  const CardDef* def = active_card(card);
  if (def == nullptr) return PlayCheck::NoActiveDefinition;
  if (def->cost > state_.energy) return PlayCheck::CannotPayCost;
  // Hooks that cancel a play or refuse it join with the hook system.
  if (def->has(kUnplayable)) return PlayCheck::Unplayable;
  return PlayCheck::Ok;
}

bool Battle::requires_target(CardId card) const {
  return card < catalog_->cards.size() && catalog_->cards[card].target == CardTarget::Enemy;
}

const CardDef* Battle::active_card(CardRef card) const {
  if (card >= state_.cards.size()) return nullptr;
  const CardId def = state_.cards[card].def;
  return def < catalog_->cards.size() ? &catalog_->cards[def] : nullptr;
}

Result<Status, Rejection> Battle::submit(const Action& action) {
  const std::string_view what = action_kind_name(action.kind);
  if (phase() == Phase::None)
    return Rejection{RefusalReason::NoBattle, PlayCheck::Ok, fmt::format("{} refused: no battle is active", what)};
  if (is_battle_over())
    return Rejection{RefusalReason::BattleOver, PlayCheck::Ok,
                     fmt::format("{} refused in phase {}: the battle is over", what, phase_name(phase()))};
  if (status() != Status::AwaitingDecision)
    return Rejection{RefusalReason::NotYourDecision, PlayCheck::Ok,
                     fmt::format("{} refused in phase {}: no decision is pending", what, phase_name(phase()))};
  Access x = Access::of(*this);
  switch (action.kind) {
    case ActionKind::EndTurn:
      break;
    case ActionKind::PlayCard: {
      const PlayCheck check = can_play_card(action.card);
      if (check != PlayCheck::Ok)
        return Rejection{RefusalReason::CannotPlayCard, check,
                         fmt::format("play_card {} refused in phase {}: {}", action.card, phase_name(phase()),
                                     play_check_name(check))};
      const CardDef& def = *active_card(action.card);
      UnitRef target = kNoUnit;
      if (action.target >= 0) {
        if (def.target != CardTarget::Enemy)
          return Rejection{RefusalReason::InvalidTarget, PlayCheck::Ok,
                           fmt::format("play_card {} refused in phase {}: card '{}' takes no target, got enemy {}",
                                       action.card, phase_name(phase()), def.id, action.target)};
        const auto e = static_cast<std::size_t>(action.target);
        if (e >= state_.enemies.size() || !state_.enemies[e].unit.alive())
          return Rejection{RefusalReason::InvalidTarget, PlayCheck::Ok,
                           fmt::format("play_card {} refused in phase {}: enemy {} is not an alive enemy", action.card,
                                       phase_name(phase()), action.target)};
        target = enemy_unit(e);
      } else if (action.target != -1) {
        return Rejection{RefusalReason::InvalidTarget, PlayCheck::Ok,
                         fmt::format("play_card {} refused in phase {}: target {} is not an enemy index or -1",
                                     action.card, phase_name(phase()), action.target)};
      }
      if (options_.record_history) actions_.push_back(action);
      // The seed's nine steps of a successful play.
      state_.energy -= def.cost;                                     // 1
      state_.played_this_turn.push_back(action.card);                // 2
      if (target == kNoUnit && def.target == CardTarget::Enemy)      // 3
        target = detail::first_alive_enemy(state_);
      events_.emit_with([&] {                                        // 4
        return Event{.type = EventType::CardPlayed, .target = target, .subject = action.card,
                     .value = state_.cards[action.card].def, .amount = def.cost};
      });
      detail::run_effects(x, def.effects, kPlayerUnit, target, action.card);  // 5
      // 6: card hooks join with the hook system.
      for (std::size_t i = 0; i < state_.hand.size(); ++i)           // 7
        if (state_.hand[i] == action.card) {
          detail::move_from_hand(x, i, def.has(kExhaust) ? Pile::Exhaust : Pile::Discard);
          break;
        }
      if (const auto decided = detail::outcome(state_)) {            // 8
        pending_trigger_ = *decided;
        has_pending_trigger_ = true;
      } else if (state_.end_turn_requested) {                        // 9
        pending_trigger_ = Trigger::EndTurnRequested;
        has_pending_trigger_ = true;
      }
      return advance();
    }
  }
  if (options_.record_history) actions_.push_back(action);
  pending_trigger_ = Trigger::EndTurnRequested;
  has_pending_trigger_ = true;
  return advance();
}

Result<Status, Rejection> Battle::try_play_card(CardRef card, std::int8_t target) {
  return submit(Action::play(card, target));
}

Result<Status, Rejection> Battle::end_player_turn() { return submit(Action::end_turn()); }

// --- hashing ----------------------------------------------------------------------------

namespace {
struct Hasher {
  std::uint64_t h = 0x84222325cbf29ce4ull;
  void add(std::uint64_t v) { h = splitmix64_mix(h ^ (v + kGolden)); }
  void add_unit(const UnitState& u) {
    add(static_cast<std::uint64_t>(u.hp));
    add(static_cast<std::uint64_t>(u.max_hp));
    add(static_cast<std::uint64_t>(u.armor));
    add(u.statuses.size());
    for (const StatusStack& st : u.statuses) add((std::uint64_t{st.status} << 16) ^ static_cast<std::uint16_t>(st.stacks));
  }
  template <class Pile>
  void add_pile(const Pile& p) {
    add(p.size());
    for (CardRef c : p) add(c);
  }
};
}  // namespace

std::uint64_t Battle::state_hash() const {
  Hasher h;
  h.add(static_cast<std::uint64_t>(phase()));
  h.add(driver_.moves());
  h.add(state_.seed);
  for (std::size_t k = 0; k < kStreamCount; ++k)
    for (std::uint64_t w : state_.rng[static_cast<Stream>(k)].state()) h.add(w);
  h.add(state_.encounter);
  h.add(state_.turn);
  h.add(state_.player_owned);
  h.add(state_.end_turn_requested);
  h.add(static_cast<std::uint64_t>(state_.energy));
  h.add_unit(state_.player);
  h.add(state_.enemies.size());
  for (const EnemyState& e : state_.enemies) {
    h.add_unit(e.unit);
    h.add(e.def);
    h.add(e.intent);
    h.add(e.last_move);
    h.add(e.streak);
    h.add(e.sequence_pos);
  }
  h.add(state_.cards.size());
  for (const CardInstance& c : state_.cards) h.add(c.def);
  h.add_pile(state_.draw_pile);
  h.add_pile(state_.hand);
  h.add_pile(state_.discard_pile);
  h.add_pile(state_.exhaust_pile);
  h.add_pile(state_.played_this_turn);
  return h.h;
}

}  // namespace battlecore::deckbuilder
