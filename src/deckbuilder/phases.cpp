#include "deckbuilder/phases.hpp"

#include <algorithm>
#include <memory>
#include <new>

namespace battlecore::deckbuilder::detail {

namespace {

void emit_turn_event(Ctx& x, EventType type) {
  x.ev.emit_with(type, [&] { return Event{.type = type, .amount = static_cast<std::int32_t>(x.s.turn)}; });
}

/// Runs a status timing on the player, then on each enemy in order.
void run_timing_for_everyone(Ctx& x, StatusTiming timing) {
  if (x.s.player.alive()) run_status_timing(x, kPlayerUnit, timing);
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) {
    if (x.battle.is_battle_active() && outcome(x.s)) return;  // battle end runs for everyone
    if (x.s.enemies[i].unit.alive()) run_status_timing(x, enemy_unit(i), timing);
  }
}

// --- battle start steps -------------------------------------------------------------------

void create_fresh_state(Ctx& x) {
  const std::uint64_t seed = x.s.seed;
  const EncounterId encounter = x.s.encounter;
  // Default-initialized in place: no temporary of the whole state, and no zeroing of it either;
  // every field takes its initializer and the FixedVecs are empty (their storage unwritten).
  std::destroy_at(&x.s);
  ::new (static_cast<void*>(&x.s)) BattleState;
  x.s.seed = seed;
  x.s.encounter = encounter;
  x.s.rules = x.c.encounters[encounter].rules;
  x.s.rng.reseed(seed);
  x.s.turn = 1;
}

void build_player(Ctx& x) {
  const PlayerUnitDef& p = x.c.players[x.c.encounters[x.s.encounter].player];
  x.s.player.max_hp = p.max_hp;
  x.s.player.hp = p.hp;
}

void build_enemies(Ctx& x) {
  for (EnemyId id : x.c.encounters[x.s.encounter].enemies) {
    const EnemyDef& def = x.c.enemies[id];
    EnemyState e;
    e.def = id;
    e.unit.max_hp = x.s.rng[Stream::Setup].between(def.hp_min, def.hp_max);
    e.unit.hp = e.unit.max_hp;
    x.s.enemies.push_back(e);
  }
  x.s.enemies_alive = count_alive_enemies(x.s);
  x.s.down = down_of(x.s);  // the player is built first
  // Starting statuses (a shell of armor plates, a ritual), each with its StatusApplied event.
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i)
    for (const auto& [status, stacks] : x.c.enemies[x.s.enemies[i].def].statuses)
      apply_status(x, enemy_unit(i), enemy_unit(i), status, stacks);
}

// The run's master deck when the host gave one, else the player unit's starting deck, whose
// keywords and listing costs the catalog has counted (Catalog::player_decks).
void build_draw_pile(Ctx& x) {
  const bool own = x.master_deck().empty();
  const PlayerUnitId player = x.c.encounters[x.s.encounter].player;
  const std::vector<CardId>& deck = own ? x.c.players[player].deck : x.master_deck();
  const std::size_t first = x.s.cards.size();
  const std::size_t n = std::min(deck.size(), kMaxCards - first);  // a longer deck is cut at kMaxCards
  // Written in place, through restricted pointers: a store of a card instance (made of bytes)
  // could otherwise alias the deck and the card table, read again after every card.
  CardInstance* __restrict out = x.s.cards.data() + first;
  const CardId* __restrict ids = deck.data();
  const CardPlayInfo* __restrict play = x.c.card_play.data();
  for (std::size_t k = 0; k < n; ++k) out[k] = CardInstance{.def = ids[k], .listing = play[ids[k]].listing};
  x.s.cards.set_size(first + n);
  const DeckIndex index = own && n == deck.size() ? x.c.player_decks[player] : deck_index_of({ids, n}, x.c);
  x.s.card_keywords = static_cast<std::uint8_t>(x.s.card_keywords | index.keywords);
  x.s.listing_costs.add(index.costs);
  x.s.piles.put_under_draw(static_cast<CardRef>(first), n);  // in deck order, bottom first
}

// Innate cards go to the top of the draw pile (the back), keeping their shuffled order. The
// player knows they are there: those the opening hand leaves stay on top until the first
// reshuffle (BattleState::draw_known_from), their order among themselves hidden.
void prioritize_innate(Ctx& x) {
  if ((x.s.card_keywords & kInnate) == 0) return;  // no card of the battle is Innate
  const auto is_innate = [&](CardRef c) { return x.c.card_play[x.s.cards[c].def].has(kInnate); };
  if (std::none_of(x.s.draw_pile().begin(), x.s.draw_pile().end(), is_innate)) return;
  CardPile ordinary, innate;
  for (CardRef c : x.s.draw_pile()) (is_innate(c) ? innate : ordinary).push_back(c);
  x.s.draw_known_from = static_cast<std::uint8_t>(ordinary.size());
  for (CardRef c : innate) ordinary.push_back(c);
  x.s.piles.assign(Pile::Draw, ordinary);
}

// --- turn steps ---------------------------------------------------------------------------

// Cards in hand with a turn-start behaviour run it, in hand order: each card of the hand as the
// step begins that is still in hand when its turn comes (a behaviour may move cards; one it
// discards or exhausts does not run, one it adds waits for the next turn start).
// Asked only when some card of the catalog has such a behaviour (Catalog::in_hand_turn_start).
void run_hand_turn_start(Ctx& x) {
  bool any = false;
  for (CardRef card : x.s.hand()) any |= x.c.card_play[x.s.cards[card].def].in_hand_turn_start;
  if (!any) return;
  FixedVec<CardRef, kMaxHand> hand;  // the hand as it was
  for (CardRef card : x.s.hand()) hand.push_back(card);
  for (CardRef card : hand) {
    if (x.s.piles.hand_index(card) == x.s.hand().size()) continue;  // it left the hand
    const OpRange ops = x.c.cards[x.s.cards[card].def].in_hand_turn_start;
    if (!ops.empty()) run_effects(x, ops, kPlayerUnit, first_alive_enemy(x.s), card);
    if (outcome(x.s)) return;
  }
}

// Normal cards to discard, Retain cards stay, Ethereal cards are exhausted.
// One pass in hand order, as if each card left the hand in turn: the piles receive them, and
// the events come, in the same order.
void discard_hand(Ctx& x) {
  // With no CardMoved to log or hear and no card kept or exhausted, nothing tells the cards
  // apart: the whole hand goes to the discard pile in one step, in the same order. The hand is
  // looked at only when some card of the battle is kept or exhausted.
  if (!x.ev.wants(EventType::CardMoved)) {
    constexpr std::uint8_t kKeptOrExhausted = kRetain | kEthereal;
    const auto hand_keywords = [&] {
      std::uint8_t keywords = 0;
      for (CardRef card : x.s.hand()) keywords |= x.c.card_play[x.s.cards[card].def].keywords;
      return keywords;
    };
    if ((x.s.card_keywords & kKeptOrExhausted) == 0 || (hand_keywords() & kKeptOrExhausted) == 0) {
      x.s.piles.discard_hand();
      return;
    }
  }
  std::size_t i = 0;  // the first card not yet looked at, after the cards kept
  while (i < x.s.hand().size()) {
    // Ethereal before Retain: a card with both is exhausted (as Ethereal cards are in the
    // deckbuilders the seed comes from, even when the hand is retained).
    const CardPlayInfo& card = x.c.card_play[x.s.cards[x.s.hand()[i]].def];
    if (card.has(kEthereal))
      move_from_hand(x, i, Pile::Exhaust);
    else if (card.has(kRetain))
      ++i;
    else
      move_from_hand(x, i, Pile::Discard);
  }
}

}  // namespace

[[gnu::hot]] std::optional<Trigger> run_initialize(Ctx& x) {
  create_fresh_state(x);                                    // 1
  build_player(x);                                          // 2
  build_enemies(x);                                         // 3
  build_draw_pile(x);                                       // 4
  x.s.piles.shuffle(Pile::Draw, x.s.rng[Stream::Shuffle]);  // 5
  prioritize_innate(x);                                     // 6
  // 7: the event bridge is the battle's EventLog; hosts attach listeners to events().
  draw_cards(x, rules(x).opening_hand);           // 8
  x.ev.emit_with(EventType::BattleStarted, [&] {  // 9
    return Event{.type = EventType::BattleStarted, .subject = x.s.encounter};
  });
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) resolve_intent(x, i);  // 10
  run_timing_for_everyone(x, StatusTiming::BattleStart);                      // 11
  if (auto decided = outcome(x.s)) return decided;
  return Trigger::Initialized;  // 12
}

[[gnu::hot]] std::optional<Trigger> run_player_turn_start(Ctx& x) {
  x.s.player_owned = true;
  decay_armor(x, kPlayerUnit);
  x.s.energy = rules(x).max_energy;
  tick_delayed(x, DelayedTiming::PlayerTurnStart);
  x.s.played_this_turn.clear();
  // Each step below runs only in an undecided battle; what it would run is asked first (most
  // turns there is nothing), then the outcome.
  if (has_status_timing(x.s.player, StatusTiming::TurnStart) && !outcome(x.s))
    run_status_timing(x, kPlayerUnit, StatusTiming::TurnStart);
  if (x.c.in_hand_turn_start && !outcome(x.s)) run_hand_turn_start(x);
  if (x.s.player_turns > 0 && !outcome(x.s)) {  // the first turn's hand was drawn at battle start
    emit_turn_event(x, EventType::DrawPhase);
    run_status_timing(x, kPlayerUnit, StatusTiming::DrawPhase);
    if (!outcome(x.s)) draw_cards(x, rules(x).draw_per_turn);
  }
  x.s.attacks_this_turn = 0;
  ++x.s.player_turns;
  emit_turn_event(x, EventType::TurnStarted);
  if (auto decided = outcome(x.s)) return decided;
  if (x.s.skipped_turns > 0) {
    --x.s.skipped_turns;
    emit_turn_event(x, EventType::TurnSkipped);
    return Trigger::TurnSkipped;
  }
  return Trigger::TurnBegan;
}

[[gnu::hot]] std::optional<Trigger> run_player_phase(Ctx& x) {
  x.s.end_turn_requested = false;
  return std::nullopt;  // waits for the player's decision
}

[[gnu::hot]] std::optional<Trigger> run_player_turn_end(Ctx& x) {
  emit_turn_event(x, EventType::DiscardPhase);                                // 1
  run_status_timing(x, kPlayerUnit, StatusTiming::DiscardPhase);              // 2
  discard_hand(x);                                                            // 3
  if (has_status_timing(x.s.player, StatusTiming::TurnEnd) && !outcome(x.s))  // 4
    run_status_timing(x, kPlayerUnit, StatusTiming::TurnEnd);
  tick_turn_end_statuses(x, kPlayerUnit);     // 5
  tick_hooks(x, kPlayerUnit);                 // 6
  tick_cost_rules(x);                         // 7
  if (!x.s.delayed.empty() && !outcome(x.s))  // 8
    tick_delayed(x, DelayedTiming::PlayerTurnEnd);
  emit_turn_event(x, EventType::TurnEnded);  // 9
  if (auto decided = outcome(x.s)) return decided;
  if (x.s.extra_turns > 0) {  // 10
    // An extra turn is a player turn like any other: none begins after turn_limit of them, and
    // the stalemate is lost (content granting one every turn would otherwise never end).
    if (x.s.player_turns >= rules(x).turn_limit) return Trigger::Defeat;
    --x.s.extra_turns;
    return Trigger::ExtraTurn;
  }
  return Trigger::TurnOver;  // 11
}

[[gnu::hot]] std::optional<Trigger> run_enemy_phase(Ctx& x) {
  x.s.player_owned = false;
  emit_turn_event(x, EventType::EnemyTurnStarted);
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i) {
    UnitState& u = x.s.enemies[i].unit;  // units never move in the state
    if (!u.alive()) continue;
    const UnitRef self = enemy_unit(i);
    decay_armor(x, self, u);
    // The battle is undecided here and the enemy alive: only a status behaviour can change
    // that before its move, and only its move or a behaviour before its turn's end.
    if (has_status_timing(u, StatusTiming::TurnStart)) {
      run_status_timing(x, self, u, StatusTiming::TurnStart);
      if (auto decided = outcome(x.s)) return decided;
      if (!u.alive()) continue;
    }
    if (!skips_turn(x, u)) perform_intent(x, i);
    if (auto decided = outcome(x.s)) return decided;
    if (has_status_timing(u, StatusTiming::TurnEnd)) {
      run_status_timing(x, self, u, StatusTiming::TurnEnd);
      if (auto decided = outcome(x.s)) return decided;
    }
    tick_turn_end_statuses(x, self, u);
    tick_hooks(x, self);
  }
  tick_delayed(x, DelayedTiming::EnemyPhaseEnd);
  if (auto decided = outcome(x.s)) return decided;
  for (std::size_t i = 0; i < x.s.enemies.size(); ++i)
    if (x.s.enemies[i].unit.alive()) resolve_intent(x, i);
  ++x.s.turn;
  if (x.s.turn > rules(x).turn_limit) return Trigger::Defeat;  // a stalemate is lost, not endless
  return Trigger::EnemiesDone;
}

[[gnu::hot]] std::optional<Trigger> run_battle_won(Ctx& x) {
  run_timing_for_everyone(x, StatusTiming::BattleEnd);  // 1
  // 2: reward candidates, distinct cards from the encounter's pool (loot stream).
  const EncounterDef& enc = x.c.encounters[x.s.encounter];
  if (enc.reward) {
    const RewardPool& pool = x.c.reward_pools[*enc.reward];
    std::vector<std::uint16_t> candidates = pool.cards;
    x.s.rng[Stream::Loot].shuffle(std::span<std::uint16_t>(candidates));
    const std::size_t n = std::min<std::size_t>({candidates.size(), pool.choices, kMaxRewardChoices});
    for (std::size_t i = 0; i < n; ++i) x.s.reward_options.push_back(candidates[i]);
  }
  if (!x.s.reward_options.empty()) {
    x.s.reward_pending = true;
    x.ev.emit_with(EventType::BattleRewardOffered, [&] {  // 3
      return Event{.type = EventType::BattleRewardOffered,
                   .amount = static_cast<std::int32_t>(x.s.reward_options.size())};
    });
    return std::nullopt;  // 4: waits for apply_reward or skip_reward
  }
  x.ev.emit_with(EventType::BattleEnded, [] { return Event{.type = EventType::BattleEnded, .amount = 1}; });
  return std::nullopt;
}

[[gnu::hot]] std::optional<Trigger> run_battle_lost(Ctx& x) {
  run_timing_for_everyone(x, StatusTiming::BattleEnd);
  x.ev.emit_with(EventType::BattleEnded, [] { return Event{.type = EventType::BattleEnded, .amount = 0}; });
  return std::nullopt;
}

namespace {
std::optional<Trigger> run_no_phase(Ctx&) { return std::nullopt; }

constexpr std::array<PhaseHandler, Machine::kPhaseNames.size()> phase_handlers() {
  std::array<PhaseHandler, Machine::kPhaseNames.size()> h{};
  const auto at = [&](Phase p) -> PhaseHandler& { return h[static_cast<std::size_t>(p)]; };
  at(Phase::None) = run_no_phase;
  at(Phase::Initialize) = run_initialize;
  at(Phase::PlayerTurnStart) = run_player_turn_start;
  at(Phase::PlayerPhase) = run_player_phase;
  at(Phase::PlayerTurnEnd) = run_player_turn_end;
  at(Phase::EnemyPhase) = run_enemy_phase;
  at(Phase::BattleWon) = run_battle_won;
  at(Phase::BattleLost) = run_battle_lost;
  return h;
}
static_assert(std::ranges::none_of(phase_handlers(), [](PhaseHandler h) { return h == nullptr; }),
              "every phase of the machine has a handler");
}  // namespace

constinit const std::array<PhaseHandler, Machine::kPhaseNames.size()> kPhaseHandlers = phase_handlers();

}  // namespace battlecore::deckbuilder::detail
