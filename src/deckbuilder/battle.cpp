#include "battlecore/deckbuilder/battle.hpp"

#include <tuple>

#include <fmt/format.h>

#include "deckbuilder/mechanics.hpp"
#include "deckbuilder/phases.hpp"

namespace battlecore::deckbuilder {

std::uint8_t count_alive_enemies(const BattleState& s) {
  std::uint8_t n = 0;
  for (const EnemyState& e : s.enemies)
    if (e.unit.alive()) ++n;
  return n;
}

std::uint8_t down_of(const BattleState& s) {
  return static_cast<std::uint8_t>((s.player.alive() ? 0 : kPlayerDown) |
                                   (s.enemies_alive == 0 ? kEnemiesDown : 0));
}

std::uint8_t count_turn_cost_cards(const BattleState& s) {
  std::uint8_t n = 0;
  for (const CardInstance& c : s.cards)
    if (c.cost_turns != 0) ++n;
  return n;
}

std::uint8_t card_keywords_of(const BattleState& s, const Catalog& c) {
  std::uint8_t keywords = 0;
  for (const CardInstance& ci : s.cards)
    if (ci.def < c.card_play.size()) keywords |= c.card_play[ci.def].keywords;
  return keywords;
}

ListingCosts listing_costs_of(const BattleState& s) {
  ListingCosts costs;
  for (const CardInstance& ci : s.cards) costs.add(ci.listing);
  return costs;
}

CardRef stale_listing(const BattleState& s, const Catalog& c) {
  for (std::size_t i = 0; i < s.cards.size(); ++i)
    if (s.cards[i].def < c.card_play.size() && s.cards[i].listing != listing_of(s.cards[i], c))
      return static_cast<CardRef>(i);
  return kNoCard;
}

std::uint16_t status_traits_of(const UnitState& u, const Catalog& c) {
  std::uint16_t traits = 0;
  for (const StatusStack& st : u.statuses) traits |= c.status_traits[st.status];
  return traits;
}

std::int32_t UnitState::stacks(StatusId status) const {
  for (const StatusStack& st : statuses)
    if (st.status == status) return st.stacks;
  return 0;
}

Battle::Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options)
    : catalog_(std::move(catalog)), options_(options) {
  BATTLECORE_ENSURE(catalog_ != nullptr, "a battle needs a catalog{}", "");
  BATTLECORE_ENSURE(catalog_indexed(*catalog_),
                    "the catalog's derived tables do not match its {} cards, {} statuses and {} enemies: "
                    "call index_catalog",
                    catalog_->cards.size(), catalog_->statuses.size(), catalog_->enemies.size());
  events_.set_log_enabled(options_.event_log);
  driver_.set_record_history(options_.record_history);
}

// --- starting ---------------------------------------------------------------------------

Result<Status> Battle::start_battle(std::string_view encounter_id, std::uint64_t seed,
                                    std::span<const CardId> master_deck) {
  const auto id = catalog_->find_encounter(encounter_id);
  if (!id) return Error{fmt::format("no encounter '{}' in pack '{}'", encounter_id, catalog_->pack.id)};
  return start_battle(*id, seed, master_deck);
}

Result<Status> Battle::start_battle(EncounterId encounter, std::uint64_t seed) {
  return start_battle(encounter, seed, {});
}

[[gnu::hot]] Result<Status> Battle::start_battle(EncounterId encounter, std::uint64_t seed,
                                                 std::span<const CardId> master_deck) {
  if (encounter >= catalog_->encounters.size())
    return Error{
        fmt::format("no encounter with index {} (the pack has {})", encounter, catalog_->encounters.size())};
  if (is_battle_active()) return Error{"a battle is already in progress; it must end before another starts"};
  // The won battle ends when its reward is taken or skipped (BattleEnded): until then it waits.
  if (is_waiting_for_reward())
    return Error{"the battle won waits for its reward; take it or skip it before another battle starts"};
  for (CardId card : master_deck)
    if (card >= catalog_->cards.size())
      return Error{fmt::format("the master deck names card {}, but the pack has {} cards", card,
                               catalog_->cards.size())};
  if (master_deck.size() > kMaxCards)
    return Error{fmt::format("the master deck has {} cards; a battle holds at most {}", master_deck.size(),
                             kMaxCards)};
  driver_.reset();
  events_.clear_log();
  damage_stats_ = DamageStats{};
  actions_.clear();
  master_deck_.assign(master_deck.begin(), master_deck.end());
  // Initialize (run_initialize) builds the whole state afresh from the seed and the encounter.
  // Until then only what the driver reads counts: nothing may wait that would hold the start
  // back, and the first transition is recorded at turn 0. What a snapshot taken at that
  // transition derives is set too: the encounter's rules, and no one down (the last battle's
  // units are not the ones Initialize builds).
  state_.seed = seed;
  state_.encounter = encounter;
  state_.rules = catalog_->encounters[encounter].rules;
  state_.down = 0;
  state_.turn = 0;
  state_.choice = PendingChoice{};
  state_.reward_pending = false;
  pending_trigger_ = Trigger::StartRequested;
  has_pending_trigger_ = true;
  return advance();
}

// --- the driver -------------------------------------------------------------------------

[[gnu::hot]] Status Battle::advance() {
  Access x = Access::of(*this);
  // While a Choice or a reward waits, a queued transition waits too. Only the queued trigger can
  // find a wait: a phase handler that returns a trigger leaves none (an effect outside a card
  // play never pauses on a Choice, run_effects_on_stack makes sure of it, and the reward is
  // offered by a handler that returns nothing). The trigger in hand is kept in a local between
  // phases.
  if (!has_pending_trigger_ || is_waiting_for_choice() || is_waiting_for_reward()) return status();
  std::optional<Trigger> trigger = pending_trigger_;
  has_pending_trigger_ = false;
  while (trigger) {
    const Phase from = driver_.current();
    const Phase to = driver_.fire(*trigger, state_.turn);
    events_.emit_with(EventType::PhaseChanged, [&] {
      return Event{.type = EventType::PhaseChanged,
                   .subject = static_cast<std::uint16_t>(from),
                   .value = static_cast<std::uint16_t>(to),
                   .amount = static_cast<std::int32_t>(*trigger)};
    });
    trigger = detail::run_phase(x, to);
  }
  return status();
}

// --- decisions --------------------------------------------------------------------------

void Battle::bad_pick(std::size_t pick, std::size_t options) {
  battlecore::detail::invariant_failed(__FILE__, __LINE__,
                                       fmt::format("the policy picked option {} of {}", pick, options));
}

// Inline: listing the options of a battle with hooks calls it for every card in hand.
inline PlayCheck Battle::check_card_in_hand(CardRef card, std::int32_t& cost) const {
  const CardId id = state_.cards[card].def;
  if (id >= catalog_->card_play.size()) return PlayCheck::NoActiveDefinition;
  const CardPlayInfo& info = catalog_->card_play[id];
  cost = detail::effective_cost(state_, *catalog_, card);
  if (cost > state_.energy) return PlayCheck::CannotPayCost;
  if (state_.hooks.empty()) return info.has(kUnplayable) ? PlayCheck::Unplayable : PlayCheck::Ok;
  const CardDef& def = catalog_->cards[id];
  if (detail::matching_hook(state_, *catalog_, HookKind::CancelPlay, def) != nullptr)
    return PlayCheck::CancelledByOnPlayHook;
  if (info.has(kUnplayable)) return PlayCheck::Unplayable;
  if (detail::matching_hook(state_, *catalog_, HookKind::RefusePlay, def) != nullptr)
    return PlayCheck::RefusedByPlayableHook;
  return PlayCheck::Ok;
}

// `out` has room for kMaxOptions. Restricted: the compiler may keep the catalog's tables and
// the state's fields in registers across the stores (Action is made of bytes, which could
// otherwise alias anything and be read again after every option).
std::size_t Battle::list_other_options(Action* __restrict out) const {
  std::size_t n = 0;
  std::int32_t cost = 0;
  if (is_waiting_for_reward()) {
    for (std::size_t i = 0; i < state_.reward_options.size(); ++i)
      out[n++] = Action::take_reward(static_cast<std::uint8_t>(i));
    out[n++] = Action::skip_reward();
    return n;
  }
  if (phase() != Phase::PlayerPhase) return 0;
  if (is_waiting_for_choice()) return list_choice_options(out);
  if (state_.played_this_turn.full()) {  // the turn's play limit: only End turn is left
    out[n++] = Action::end_turn();
    return n;
  }
  // Without hooks, each card's listing byte (CardInstance::listing) says whether it is listed and
  // at whom: its cost is at most the energy (kListingCostUnknown and kListingUnplayable never are
  // while the energy is at most kMaxListedCost). With hooks, or more energy than that, each card
  // takes check_card_in_hand.
  const CardInstance* __restrict cards = state_.cards.data();
  const std::int32_t energy = state_.energy;
  const auto list_plays = [&]<bool kByByte>() {
    const auto listed = [&](CardRef card) {
      if constexpr (kByByte)
        return (cards[card].listing & kListingCost) <= energy;
      else
        return check_card_in_hand(card, cost) == PlayCheck::Ok;
    };
    const auto aimed = [&](CardRef card) { return (cards[card].listing & kListingAimed) != 0; };
    // One enemy alive: one option per listed card, its target chosen, not branched on. By the
    // listing byte, list_options has listed that case already (the loop below would list it too).
    if (!kByByte && state_.enemies_alive == 1) {
      const auto alive = static_cast<std::int8_t>(detail::first_alive_enemy(state_) - 1);
      for (CardRef card : state_.hand())
        if (listed(card)) out[n++] = Action::play(card, aimed(card) ? alive : std::int8_t{-1});
      return;
    }
    for (CardRef card : state_.hand()) {
      if (!listed(card)) continue;
      if (aimed(card)) {
        for (std::size_t e = 0; e < state_.enemies.size(); ++e)
          if (state_.enemies[e].unit.alive()) out[n++] = Action::play(card, static_cast<std::int8_t>(e));
      } else {
        out[n++] = Action::play(card);
      }
    }
  };
  if (state_.hooks.empty() && energy <= kMaxListedCost)
    list_plays.template operator()<true>();
  else
    list_plays.template operator()<false>();
  out[n++] = Action::end_turn();
  return n;
}

// Out of line: the listing of plays, at every decision, then keeps its frame small.
[[gnu::noinline]] std::size_t Battle::list_choice_options(Action* out) const {
  const PendingChoice& c = state_.choice;
  std::size_t count = c.option_count;
  if (c.kind != PendingChoice::Kind::Options) {
    std::array<std::uint8_t, kMaxCards> eligible{};
    count = state_.choice_cards(*catalog_, eligible);
  }
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) out[n++] = Action::choose(static_cast<std::uint8_t>(i));
  if (c.skippable) out[n++] = Action::skip_choice();
  return n;
}

void Battle::legal_actions(std::vector<Action>& out) const {
  Options listed;
  legal_actions(listed);
  out.assign(listed.begin(), listed.end());
}

Decision Battle::decision() const {
  Decision d;
  if (is_play_interrupted()) return d;  // no one decides: the battle cannot go on
  if (status() == Status::AwaitingDecision) d.who = Decider{Decider::Kind::Player, 0};
  legal_actions(d.options);
  return d;
}

std::int32_t Battle::effective_cost(CardRef card) const {
  return card < state_.cards.size() ? detail::effective_cost(state_, *catalog_, card) : 0;
}

inline PlayCheck Battle::check_play(CardRef card, std::int32_t& cost) const {
  if (phase() != Phase::PlayerPhase || is_waiting_for_choice()) return PlayCheck::WrongPhase;
  if (card >= state_.cards.size()) return PlayCheck::NullCard;
  if (state_.player.max_hp <= 0) return PlayCheck::MissingPlayer;
  if (state_.piles.hand_index(card) == state_.hand().size()) return PlayCheck::NotInHand;
  const PlayCheck check = check_card_in_hand(card, cost);
  // The engine's own limit, after the seed's checks: the record of the turn's plays is full.
  return check == PlayCheck::Ok && state_.played_this_turn.full() ? PlayCheck::TurnPlayLimit : check;
}

PlayCheck Battle::can_play_card(CardRef card) const {
  std::int32_t cost = 0;
  return check_play(card, cost);
}

bool Battle::requires_target(CardId card) const {
  return card < catalog_->cards.size() && catalog_->cards[card].target == CardTarget::Enemy;
}

const CardDef* Battle::active_card(CardRef card) const {
  if (card >= state_.cards.size()) return nullptr;
  const CardId def = state_.cards[card].def;
  return def < catalog_->cards.size() ? &catalog_->cards[def] : nullptr;
}

namespace {
Rejection refuse(RefusalReason reason, const Action& a, Phase phase, std::string why,
                 PlayCheck check = PlayCheck::Ok) {
  return Rejection{
      reason, check,
      fmt::format("{} refused in phase {}: {}", action_kind_name(a.kind), phase_name(phase), why)};
}
}  // namespace

Result<Status, Rejection> Battle::submit(const Action& action) {
  if (phase() == Phase::None) return refuse(RefusalReason::NoBattle, action, phase(), "no battle is active");
  if (is_waiting_for_reward()) {
    if (action.kind == ActionKind::TakeReward || action.kind == ActionKind::SkipReward)
      return resolve_reward(action);
    return refuse(RefusalReason::WaitingForReward, action, phase(),
                  "a reward is offered: take one (take_reward) or skip it (skip_reward)");
  }
  if (is_battle_over()) return refuse(RefusalReason::BattleOver, action, phase(), "the battle is over");
  if (status() != Status::AwaitingDecision)
    return refuse(RefusalReason::NotYourDecision, action, phase(), "no decision is pending");
  if (is_play_interrupted())
    return refuse(
        RefusalReason::NotYourDecision, action, phase(),
        fmt::format("the play of card {} was interrupted (a snapshot taken in the middle of it): the "
                    "battle cannot go on from here",
                    state_.playing.card));
  if (is_waiting_for_choice()) {
    if (action.kind == ActionKind::ChooseOption || action.kind == ActionKind::SkipChoice)
      return resolve_choice(action);
    return refuse(RefusalReason::WaitingForChoice, action, phase(),
                  "a choice is pending: pick an option (choose) or skip it where allowed");
  }
  switch (action.kind) {
    case ActionKind::EndTurn:
      return end_turn(action);
    case ActionKind::PlayCard:
      return play_card(action);
    case ActionKind::ChooseOption:
    case ActionKind::SkipChoice:
      return refuse(RefusalReason::NotYourDecision, action, phase(), "no choice is pending");
    case ActionKind::TakeReward:
    case ActionKind::SkipReward:
      return refuse(RefusalReason::NotYourDecision, action, phase(), "no reward is offered");
  }
  return refuse(RefusalReason::NotYourDecision, action, phase(), "unknown action");
}

Status Battle::submit_checked(const Action& action) {
  auto done = submit(action);
  BATTLECORE_ENSURE(done.ok(), "a listed option was refused: {}", done.ok() ? "" : done.error().message);
  return done.value();
}

Result<Status, Rejection> Battle::play_card(const Action& action) {
  std::int32_t cost = 0;
  const PlayCheck check = check_play(action.card, cost);
  if (check != PlayCheck::Ok)
    return refuse(RefusalReason::CannotPlayCard, action, phase(),
                  fmt::format("card {}: {}", action.card, play_check_name(check)), check);
  // The card and its definition exist: the checks passed, and a battle's catalog has its card
  // index (card_play) for every card definition.
  const CardDef& def = catalog_->cards[state_.cards[action.card].def];
  UnitRef target = kNoUnit;
  if (action.target >= 0) {
    if (def.target != CardTarget::Enemy)
      return refuse(RefusalReason::InvalidTarget, action, phase(),
                    fmt::format("card '{}' takes no target, got enemy {}", def.id, action.target));
    const auto e = static_cast<std::size_t>(action.target);
    if (e >= state_.enemies.size() || !state_.enemies[e].unit.alive())
      return refuse(RefusalReason::InvalidTarget, action, phase(),
                    fmt::format("enemy {} is not an alive enemy", action.target));
    target = enemy_unit(e);
  } else if (action.target != -1) {
    return refuse(RefusalReason::InvalidTarget, action, phase(),
                  fmt::format("target {} is not an enemy index or -1", action.target));
  }
  return perform_play(action, def, def.x_cost() ? kXCost : cost, target);
}

[[gnu::hot]] Status Battle::perform_play(const Action& action, const CardDef& def, std::int32_t cost,
                                         UnitRef target) {
  // An X-cost card (its cost kXCost) takes all the energy, its X. A path of its own: the common one
  // keeps no X.
  if (cost < 0) [[unlikely]]
    return play_steps<true>(action, def, state_.energy, target);
  return play_steps<false>(action, def, cost, target);
}

template <bool kXCost>
[[gnu::always_inline]] inline Status Battle::play_steps(const Action& action, const CardDef& def,
                                                        std::int32_t cost, UnitRef target) {
  if (options_.record_history) actions_.push_back(canonical_action(action));
  Access x = Access::of(*this);
  // The seed's nine steps of a successful play; 6 to 9 run once the effect has finished.
  state_.energy -= cost;                                              // 1
  state_.played_this_turn.push_back(action.card);                     // 2
  if (target == kNoUnit) target = detail::first_alive_enemy(state_);  // 3
  if (def.type == CardType::Attack) ++state_.attacks_this_turn;
  events_.emit_with(EventType::CardPlayed, [&] {  // 4
    return Event{.type = EventType::CardPlayed,
                 .target = target,
                 .subject = action.card,
                 .value = state_.cards[action.card].def,
                 .amount = cost};
  });
  state_.playing = PlayInProgress{action.card, target};
  if constexpr (kXCost) state_.playing_x = static_cast<std::uint8_t>(cost);  // finish_play clears it
  // 5: a list that cannot pause runs straight through; any other goes on the effect stack.
  // A play is made in the player phase of an undecided battle, by the player, who is alive.
  if (detail::run_flat<true>(x, def.effects, kPlayerUnit, target, action.card)) return finish_play(x, def);
  detail::push_block(x, def.effects, EffectFrame::Kind::Block, kPlayerUnit, target, action.card);
  return continue_play();
}

Status Battle::continue_play() {
  Access x = Access::of(*this);
  if (!state_.effects.empty()) detail::run_effect_stack(x, 0);
  if (is_waiting_for_choice()) return status();  // paused: the Choice is the pending decision
  return finish_play(x, *active_card(state_.playing.card));
}

// Always inlined into perform_play and continue_play: left to the compiler's size limits it
// became a call at every play.
[[gnu::always_inline]] inline Status Battle::finish_play(Access& x, const CardDef& def) {
  const CardRef card = state_.playing.card;
  if (!state_.hooks.empty() && !detail::outcome(state_))
    detail::run_card_played_hooks(x, def, state_.playing.target);
  for (std::uint16_t hook : def.hooks) detail::register_hook(x, hook, kPlayerUnit);  // 6
  // 7: to the exhaust pile or the discard pile, when the effect left it in the hand.
  if (def.has(kExhaust) || def.type == CardType::Power) {
    if (const std::size_t i = state_.piles.hand_index(card); i < state_.hand().size())
      detail::move_from_hand(x, i, Pile::Exhaust);
  } else if (state_.piles.discard_from_hand(card)) {
    detail::card_moved_from_hand(x, card, Pile::Discard);
  }
  state_.playing = PlayInProgress{};
  state_.playing_x = 0;
  if (const auto decided = detail::outcome(state_)) {  // 8
    pending_trigger_ = *decided;
    has_pending_trigger_ = true;
  } else if (state_.end_turn_requested) {  // 9
    pending_trigger_ = Trigger::EndTurnRequested;
    has_pending_trigger_ = true;
  }
  return has_pending_trigger_ ? advance() : status();
}

Result<Status, Rejection> Battle::resolve_choice(const Action& action) {
  PendingChoice& c = state_.choice;
  if (action.kind == ActionKind::SkipChoice && !c.skippable)
    return refuse(RefusalReason::InvalidOption, action, phase(), "this choice cannot be skipped");
  std::array<std::uint8_t, kMaxCards> eligible{};
  const std::size_t n =
      c.kind == PendingChoice::Kind::Options ? c.option_count : state_.choice_cards(*catalog_, eligible);
  if (action.kind == ActionKind::ChooseOption && action.index >= n)
    return refuse(RefusalReason::InvalidOption, action, phase(),
                  fmt::format("option {} does not exist; the choice has {} options", action.index, n));
  if (options_.record_history) actions_.push_back(canonical_action(action));
  Access x = Access::of(*this);
  const std::int32_t picked = action.kind == ActionKind::SkipChoice ? -1 : action.index;
  events_.emit_with(EventType::ChoiceMade,
                    [&] { return Event{.type = EventType::ChoiceMade, .amount = picked}; });
  const PendingChoice made = c;
  if (picked < 0) {
    c = PendingChoice{};
  } else if (made.kind == PendingChoice::Kind::Options) {
    c = PendingChoice{};
    detail::push_block(x, catalog_->blocks[made.first_block + static_cast<std::size_t>(picked)],
                       EffectFrame::Kind::Block, made.source, made.target, made.card);
  } else {
    // No choice waits while the card moves: a listener of its CardMoved sees a state that could
    // be restored, where a choice still waiting might have no card left to offer.
    c = PendingChoice{};
    detail::take_picked_card(x, made.kind, eligible[static_cast<std::size_t>(picked)]);
    if (made.picks_left <= 1) return continue_play();
    c = made;
    c.picks_left = static_cast<std::uint8_t>(made.picks_left - 1);
    const std::size_t left = state_.choice_cards(*catalog_, eligible);
    if (left == 0) {
      c = PendingChoice{};
    } else {  // the next pick is offered like the first
      events_.emit_with(EventType::ChoiceOffered, [&] {
        return Event{.type = EventType::ChoiceOffered,
                     .amount = static_cast<std::int32_t>(left),
                     .extra = static_cast<std::int32_t>(c.kind)};
      });
    }
  }
  return continue_play();
}

Result<Status, Rejection> Battle::resolve_reward(const Action& action) {
  if (action.kind == ActionKind::TakeReward && action.index >= state_.reward_options.size())
    return refuse(
        RefusalReason::InvalidOption, action, phase(),
        fmt::format("reward {} does not exist; {} are offered", action.index, state_.reward_options.size()));
  if (options_.record_history) actions_.push_back(canonical_action(action));
  if (action.kind == ActionKind::TakeReward) {
    const CardId card = state_.reward_options[action.index];
    state_.reward_taken = card;
    events_.emit_with(EventType::BattleRewardSelected,
                      [&] { return Event{.type = EventType::BattleRewardSelected, .value = card}; });
  } else {
    events_.emit_with(EventType::BattleRewardSkipped,
                      [] { return Event{.type = EventType::BattleRewardSkipped}; });
  }
  state_.reward_pending = false;
  events_.emit_with(EventType::BattleEnded,
                    [] { return Event{.type = EventType::BattleEnded, .amount = 1}; });
  return status();
}

Result<Status, Rejection> Battle::try_play_card(CardRef card, std::int8_t target) {
  return submit(Action::play(card, target));
}

Result<Status, Rejection> Battle::end_player_turn() { return submit(Action::end_turn()); }
Result<Status, Rejection> Battle::select_choice(std::uint8_t index) { return submit(Action::choose(index)); }
Result<Status, Rejection> Battle::skip_choice() { return submit(Action::skip_choice()); }
Result<Status, Rejection> Battle::apply_reward(std::uint8_t index) {
  return submit(Action::take_reward(index));
}
Result<Status, Rejection> Battle::skip_reward() { return submit(Action::skip_reward()); }

bool Battle::operator==(const Battle& o) const {
  return (catalog_ == o.catalog_ || catalog_->content_hash == o.catalog_->content_hash) &&
         options_.event_log == o.options_.event_log && options_.record_history == o.options_.record_history &&
         state_ == o.state_ && driver_ == o.driver_ && events_.log_enabled() == o.events_.log_enabled() &&
         events_.log() == o.events_.log() && damage_stats_ == o.damage_stats_ && actions_ == o.actions_ &&
         master_deck_ == o.master_deck_ && has_pending_trigger_ == o.has_pending_trigger_ &&
         (!has_pending_trigger_ || pending_trigger_ == o.pending_trigger_);
}

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
    for (const StatusStack& st : u.statuses)
      add((std::uint64_t{st.status} << 16) ^ static_cast<std::uint16_t>(st.stacks));
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
    for (std::uint64_t w : state_.rng.words(static_cast<Stream>(k))) h.add(w);
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
  h.add_pile(state_.draw_pile());
  h.add_pile(state_.hand());
  h.add_pile(state_.discard_pile());
  h.add_pile(state_.exhaust_pile());
  h.add_pile(state_.played_this_turn);
  h.add(state_.player_turns);
  h.add(state_.extra_turns);
  h.add(state_.skipped_turns);
  h.add(state_.attacks_this_turn);
  for (const CardInstance& c : state_.cards)
    h.add((std::uint64_t{static_cast<std::uint8_t>(c.battle_cost_set)} << 32) ^
          (std::uint64_t{static_cast<std::uint8_t>(c.battle_cost_change)} << 24) ^
          (std::uint64_t{static_cast<std::uint8_t>(c.turn_cost_set)} << 16) ^
          (std::uint64_t{static_cast<std::uint8_t>(c.turn_cost_change)} << 8) ^ c.cost_turns);
  h.add(state_.hooks.size());
  for (const ActiveHook& k : state_.hooks)
    h.add((std::uint64_t{k.hook} << 16) ^ (std::uint64_t{static_cast<std::uint8_t>(k.owner)} << 8) ^
          k.turns_left);
  h.add(state_.delayed.size());
  for (const DelayedTrigger& d : state_.delayed)
    h.add((std::uint64_t{d.block} << 32) ^ (std::uint64_t{static_cast<std::uint8_t>(d.timing)} << 24) ^
          (std::uint64_t{d.occurrences_left} << 16) ^
          (std::uint64_t{static_cast<std::uint8_t>(d.source)} << 8) ^ static_cast<std::uint8_t>(d.target));
  h.add(state_.effects.size());
  for (const EffectFrame& f : state_.effects) {
    h.add((std::uint64_t{f.begin} << 32) ^ f.pc);
    h.add((std::uint64_t{f.end} << 32) ^ (std::uint64_t{static_cast<std::uint8_t>(f.kind)} << 24) ^
          (std::uint64_t{static_cast<std::uint8_t>(f.source)} << 16) ^
          (std::uint64_t{static_cast<std::uint8_t>(f.target)} << 8) ^ f.card);
    h.add((std::uint64_t{f.repeat_left} << 16) ^ f.status);
  }
  const PendingChoice& c = state_.choice;
  h.add((std::uint64_t{static_cast<std::uint8_t>(c.kind)} << 56) ^ (std::uint64_t{c.skippable} << 48) ^
        (std::uint64_t{c.picks_left} << 40) ^ (std::uint64_t{c.first_block} << 24) ^
        (std::uint64_t{c.option_count} << 16) ^ (std::uint64_t{static_cast<std::uint8_t>(c.source)} << 8) ^
        static_cast<std::uint8_t>(c.target));
  h.add((std::uint64_t{card_filter_hash_code(c.filter)} << 24) ^ (std::uint64_t{c.card} << 16) ^
        (std::uint64_t{state_.playing_x} << 32) ^ (std::uint64_t{state_.playing.card} << 8) ^
        static_cast<std::uint8_t>(state_.playing.target));
  h.add(state_.reward_options.size());
  for (CardId r : state_.reward_options) h.add(r);
  h.add(state_.reward_pending);
  h.add(static_cast<std::uint64_t>(state_.reward_taken));
  for (const EnemyState& e : state_.enemies) h.add(e.rules_used);
  // What the player knows of the draw pile's top, by the cards it covers (a mark the draws have
  // passed covers none, as no mark does), added only when it covers some: a battle where it
  // covers none keeps the hashes its recorded replays hold. Likewise the cards known in order.
  if (const std::size_t known = state_.known_on_top(); known != 0) h.add(known);
  if (const std::size_t in_order = state_.known_in_order_on_top(); in_order != 0) h.add(in_order + 0x100);
  return h.h;
}

}  // namespace battlecore::deckbuilder
