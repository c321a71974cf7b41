#include "battlecore/clash/battle.hpp"

#include <fmt/format.h>

#include "clash/mechanics.hpp"

namespace battlecore::clash {

namespace {
detail::Ctx context(Battle& b, const EncounterDef& e) {
  return detail::Ctx{Battle::Access::state(b), e, Battle::Access::events(b)};
}

std::string_view step_words(TurnStep step) {
  switch (step) {
    case TurnStep::Roll:
      return "roll the die (roll)";
    case TurnStep::Rock:
      return "pick one of the two offered rocks (choose_rock)";
    case TurnStep::Card:
      return "pick a card that matches its rock (play_card)";
    case TurnStep::None:
      return "wait";
  }
  return "?";
}
}  // namespace

Battle::Battle(std::shared_ptr<const Catalog> catalog, BattleOptions options)
    : catalog_(std::move(catalog)), options_(options) {
  BATTLECORE_ENSURE(catalog_ != nullptr, "a battle needs a catalog{}", "");
  events_.set_log_enabled(options_.event_log);
  driver_.set_record_history(options_.record_history);
}

Result<Status> Battle::start_battle(std::string_view encounter_id, std::uint64_t seed) {
  const auto id = catalog_->find_encounter(encounter_id);
  if (!id) return Error{fmt::format("no encounter '{}' in pack '{}'", encounter_id, catalog_->pack.id)};
  return start_battle(*id, seed);
}

Result<Status> Battle::start_battle(EncounterId encounter, std::uint64_t seed) {
  if (encounter >= catalog_->encounters.size())
    return Error{
        fmt::format("no encounter with index {} (the pack has {})", encounter, catalog_->encounters.size())};
  if (is_battle_active()) return Error{"a battle is already in progress; it must end before another starts"};
  set_up(encounter, seed);
  return advance();
}

void Battle::set_up(EncounterId encounter, std::uint64_t seed) {
  driver_.reset();
  events_.clear_log();
  actions_.clear();
  state_ = BattleState{};
  state_.seed = seed;
  state_.encounter = encounter;
  state_.rng = RngStreams(seed);
  started_ = true;
  // BattleStart is the initial state: it runs without a move into it.
  detail::Ctx x = context(*this, this->encounter());
  const std::optional<Trigger> next = detail::run_phase(x, Phase::BattleStart);
  BATTLECORE_ENSURE(next.has_value(), "BattleStart asked for no transition{}", "");
  pending_trigger_ = *next;
  has_pending_trigger_ = true;
}

// The manager: states ask for a trigger, the table says where it leads, and only here does the
// current state change.
Status Battle::advance() {
  if (!started_) return Status::Finished;
  detail::Ctx x = context(*this, encounter());
  while (has_pending_trigger_) {
    has_pending_trigger_ = false;
    const Phase from = driver_.current();
    const Trigger trigger = pending_trigger_;
    const Phase to = driver_.fire(trigger, state_.round);
    events_.emit_with(EventType::PhaseChanged, [&] {
      return Event{.type = EventType::PhaseChanged,
                   .winner = static_cast<SeatRef>(trigger),
                   .amount = static_cast<std::int32_t>(from),
                   .extra = static_cast<std::int32_t>(to)};
    });
    if (const std::optional<Trigger> next = detail::run_phase(x, to)) {
      pending_trigger_ = *next;
      has_pending_trigger_ = true;
    }
  }
  return status();
}

Status Battle::status() const {
  return is_battle_active() && state_.step != TurnStep::None ? Status::AwaitingDecision : Status::Finished;
}

std::vector<SeatRef> Battle::remaining_in_order() const {
  std::vector<SeatRef> in;
  for (std::uint8_t seat : detail::remaining(state_)) in.push_back(static_cast<SeatRef>(seat));
  return in;
}

void Battle::legal_actions(std::vector<Action>& out) const {
  out.clear();
  if (status() != Status::AwaitingDecision) return;
  const SeatRef seat = state_.current;
  switch (state_.step) {
    case TurnStep::Roll:
      out.push_back(Action::roll(seat));
      return;
    case TurnStep::Rock:
      for (std::size_t i = 0; i < state_.offered_count; ++i)
        out.push_back(Action::choose_rock(seat, state_.offered[i]));
      return;
    case TurnStep::Card: {
      const SeatState& s = state_.seats[static_cast<std::size_t>(seat)];
      const Element rock = rock_element(s.rock);
      for (std::size_t i = 0; i < s.hand.size(); ++i)
        if (playable_on(s.hand[i], rock)) out.push_back(Action::play(seat, static_cast<std::uint8_t>(i)));
      return;
    }
    case TurnStep::None:
      return;
  }
}

Decision Battle::decision() const {
  Decision d;
  if (status() == Status::AwaitingDecision) d.who = Decider{Decider::Kind::Seat, state_.current};
  legal_actions(d.options);
  return d;
}

Result<Status, Rejection> Battle::refuse(RefusalReason reason, const Action& a, std::string why) const {
  return Rejection{reason, fmt::format("{} by seat {} refused in {}: {}", action_kind_name(a.kind), a.seat,
                                       phase_name(phase()), why)};
}

Result<Status, Rejection> Battle::submit(const Action& action) {
  if (!started_) return refuse(RefusalReason::NoBattle, action, "no battle has started");
  if (is_battle_over()) return refuse(RefusalReason::BattleOver, action, "the battle is over");
  if (status() != Status::AwaitingDecision)
    return refuse(RefusalReason::WrongStep, action, "no decision is pending");
  if (action.seat != state_.current)
    return refuse(RefusalReason::NotYourTurn, action, fmt::format("it is seat {}'s turn", state_.current));
  const SeatState& seat = state_.seats[static_cast<std::size_t>(state_.current)];
  const auto wrong_step = [&] {
    return refuse(RefusalReason::WrongStep, action,
                  fmt::format("seat {} must {}", state_.current, step_words(state_.step)));
  };
  detail::Ctx x = context(*this, encounter());
  switch (state_.step) {
    case TurnStep::Roll:
      if (action.kind != ActionKind::Roll) return wrong_step();
      // Recorded in its canonical form: a roll carries no value.
      if (options_.record_history) actions_.push_back(Action::roll(action.seat));
      detail::roll_die(x);
      return advance();
    case TurnStep::Rock: {
      if (action.kind != ActionKind::ChooseRock) return wrong_step();
      bool offered = false;
      for (std::size_t i = 0; i < state_.offered_count; ++i) offered |= state_.offered[i] == action.value;
      if (!offered)
        return refuse(RefusalReason::RockNotOffered, action,
                      state_.offered_count == 2
                          ? fmt::format("rock {} is not offered; the roll of {} offers rocks {} and {}",
                                        action.value, state_.dice, state_.offered[0], state_.offered[1])
                          : fmt::format("rock {} is not offered; the roll of {} offers rock {}", action.value,
                                        state_.dice, state_.offered[0]));
      if (options_.record_history) actions_.push_back(action);
      detail::move_to_rock(x, action.value);
      break;
    }
    case TurnStep::Card: {
      if (action.kind != ActionKind::PlayCard) return wrong_step();
      if (action.value >= seat.hand.size())
        return refuse(
            RefusalReason::NoSuchCard, action,
            fmt::format("the hand has no slot {}; it holds {} cards", action.value, seat.hand.size()));
      const Card card = seat.hand[action.value];
      const Element rock = rock_element(seat.rock);
      if (!playable_on(card, rock))
        return refuse(RefusalReason::CardDoesNotMatch, action,
                      fmt::format("{} {} does not match rock {} ({}); only {} cards may be played there",
                                  element_name(card.element), card.value, seat.rock, element_name(rock),
                                  element_name(rock)));
      if (options_.record_history) actions_.push_back(action);
      detail::play_card(x, action.value);
      break;
    }
    case TurnStep::None:
      return wrong_step();
  }
  if (state_.step == TurnStep::None) {  // the turn is over: the handover rule picks what is next
    pending_trigger_ = detail::hand_over(x);
    has_pending_trigger_ = true;
  }
  return advance();
}

bool Battle::operator==(const Battle& o) const {
  return (catalog_ == o.catalog_ || catalog_->content_hash == o.catalog_->content_hash) &&
         options_.event_log == o.options_.event_log && options_.record_history == o.options_.record_history &&
         started_ == o.started_ && state_ == o.state_ && driver_ == o.driver_ &&
         events_.log_enabled() == o.events_.log_enabled() && events_.log() == o.events_.log() &&
         actions_ == o.actions_ && has_pending_trigger_ == o.has_pending_trigger_ &&
         (!has_pending_trigger_ || pending_trigger_ == o.pending_trigger_);
}

// --- hashing ----------------------------------------------------------------------------

namespace {
struct Hasher {
  std::uint64_t h = 0x84222325cbf29ce4ull;
  void add(std::uint64_t v) { h = splitmix64_mix(h ^ (v + kGolden)); }
  void add_card(Card c) { add((std::uint64_t{static_cast<std::uint8_t>(c.element)} << 8) ^ c.value); }
};
}  // namespace

std::uint64_t Battle::state_hash() const {
  Hasher h;
  h.add(static_cast<std::uint64_t>(phase()));
  h.add(driver_.moves());
  h.add(started_);
  h.add(state_.seed);
  for (std::size_t k = 0; k < kStreamCount; ++k)
    for (std::uint64_t w : state_.rng.words(static_cast<Stream>(k))) h.add(w);
  h.add(state_.encounter);
  h.add(state_.round);
  h.add(state_.seats.size());
  for (const SeatState& s : state_.seats) {
    h.add(static_cast<std::uint64_t>(s.kind));
    h.add(static_cast<std::uint64_t>(static_cast<std::uint32_t>(s.health)));
    h.add((std::uint64_t{s.rock} << 16) ^ (std::uint64_t{s.out} << 8) ^ s.place);
    h.add(s.out_round);
    h.add(s.hand.size());
    for (Card c : s.hand) h.add_card(c);
    h.add(s.pile.size());
    for (Card c : s.pile) h.add_card(c);
    h.add_card(s.choice);
    h.add(s.acted);
  }
  h.add(state_.order.size());
  for (std::uint8_t o : state_.order) h.add(o);
  h.add(static_cast<std::uint64_t>(static_cast<std::uint8_t>(state_.current)));
  h.add(static_cast<std::uint64_t>(state_.step));
  h.add((std::uint64_t{state_.dice} << 24) ^ (std::uint64_t{state_.offered[0]} << 16) ^
        (std::uint64_t{state_.offered[1]} << 8) ^ state_.offered_count);
  h.add(state_.sudden_deaths);
  return h.h;
}

// --- invariants -------------------------------------------------------------------------

bool check_invariants(const Battle& battle, std::string* why, std::string* where) {
  const auto fail = [&](std::string at, std::string text) {
    if (why != nullptr) *why = std::move(text);
    if (where != nullptr) *where = std::move(at);
    return false;
  };
  const BattleState& s = battle.state();
  const EncounterDef& e = battle.encounter();
  const std::size_t n = e.seats.size();
  // Pointers are formatted only for a failure: the sweep checks every step.
  const auto seat_at = [](std::size_t i) { return fmt::format("/state/seats/{}", i); };
  if (s.seats.size() != n || n < kMinSeats || n > kMaxSeats)
    return fail("/state/seats", fmt::format("{} seats, the encounter has {}", s.seats.size(), n));
  if (s.order.size() != n)
    return fail("/state/order", fmt::format("the turn order has {} seats of {}", s.order.size(), n));
  std::array<bool, kMaxSeats> listed{};  // the order is a shuffle of the seats: each once
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t o = s.order[i];
    if (o >= n || listed[o])
      return fail(fmt::format("/state/order/{}", i),
                  o >= n ? fmt::format("the turn order names seat {}", o)
                         : fmt::format("seat {} is already in the turn order", o));
    listed[o] = true;
  }
  // Rounds are numbered from 1 and none begins past the round limit, sudden-death rounds too.
  if (s.round < 1 || s.round > e.rules.round_limit)
    return fail("/state/round",
                fmt::format("expected a round in [1, {}] (the encounter's round_limit), got {}",
                            e.rules.round_limit, s.round));
  if (s.sudden_deaths > e.rules.sudden_death_rounds)
    return fail("/state/sudden_deaths", fmt::format("the encounter allows {} sudden-death rounds, got {}",
                                                    e.rules.sudden_death_rounds, s.sudden_deaths));
  // The roll is shown from the roll to the end of the turn, the rocks it offers only until one is
  // chosen: neither stays behind once it is over. Checked last, once the step is known to be right.
  const auto roll_fits_step = [&] {
    if (s.dice != 0 && s.step != TurnStep::Rock && s.step != TurnStep::Card)
      return fail(
          "/state/dice",
          fmt::format("no die is rolled outside a turn's rock and card steps: expected 0, got {}", s.dice));
    if (s.step == TurnStep::Rock) return true;
    const auto stale = [&](std::string at, std::uint32_t value) {
      return fail(std::move(at),
                  fmt::format("no rock is offered outside a turn's rock step: expected 0, got {}", value));
    };
    for (std::size_t i = 0; i < s.offered.size(); ++i)
      if (s.offered[i] != 0) return stale(fmt::format("/state/offered/{}", i), s.offered[i]);
    return s.offered_count == 0 || stale("/state/offered_count", s.offered_count);
  };
  const bool over = battle.phase() == Phase::BattleEnd;
  std::size_t in = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const SeatState& seat = s.seats[i];
    if (seat.kind != e.seats[i].kind)
      return fail(seat_at(i) + "/kind", fmt::format("seat {} changed kind", i));
    if (seat.hand.size() > e.rules.hand_size)
      return fail(seat_at(i) + "/hand", fmt::format("seat {} holds {} cards, more than {}", i,
                                                    seat.hand.size(), e.rules.hand_size));
    for (Card c : seat.hand)
      if (c.empty() || c.value < kMinCardValue || c.value > kMaxCardValue)
        return fail(seat_at(i) + "/hand",
                    fmt::format("seat {} holds a card {} {}", i, element_name(c.element), c.value));
    if (seat.health > e.rules.health || seat.health < -static_cast<std::int32_t>(kMaxSeats))
      return fail(seat_at(i) + "/health", fmt::format("seat {} has health {}", i, seat.health));
    if (seat.rock >= e.rules.rocks)
      return fail(seat_at(i) + "/rock", fmt::format("seat {} is on rock {}", i, seat.rock));
    if (seat.out) {
      if (seat.place < 1 || seat.place > n)
        return fail(seat_at(i) + "/place", fmt::format("seat {} is out with place {}", i, seat.place));
      if (seat.out_round < 1 || seat.out_round > s.round)
        return fail(seat_at(i) + "/out_round",
                    fmt::format("seat {} went out in round {}", i, seat.out_round));
    } else if (over) {
      if (seat.place < 1 || seat.place > n)
        return fail(seat_at(i) + "/place", fmt::format("the battle is over: expected a place in [1, {}]", n));
      if (in > 0) return fail(seat_at(i) + "/out", "the battle is over: expected one seat at most still in");
    } else {
      if (seat.place != 0)
        return fail(seat_at(i) + "/place", fmt::format("seat {} is still in: expected 0", i));
      if (detail::health_out(e, seat))
        return fail(seat_at(i) + "/health",
                    fmt::format("seat {} is still in: expected health above {}, got {}", i,
                                e.rules.elimination == Elimination::AtZero ? 0 : -1, seat.health));
    }
    in += seat.out ? 0u : 1u;
  }
  if (over) {
    if (s.step != TurnStep::None || s.current != kNoSeat)
      return fail(s.step != TurnStep::None ? "/state/step" : "/state/current",
                  "the battle is over: expected no turn (step \"none\", current -1)");
    return roll_fits_step();
  }
  // Between two actions a battle not over always waits for a seat's decision.
  if (battle.status() != Status::AwaitingDecision)
    return fail("/state/step",
                "the battle is not over: expected a turn step (\"roll\", \"rock\" or \"card\")");
  if (in < 2)
    return fail("/state/step", fmt::format("only {} seat is still in: expected no turn (\"none\")", in));
  if (s.current < 0 || static_cast<std::size_t>(s.current) >= n ||
      s.seats[static_cast<std::size_t>(s.current)].out)
    return fail("/state/current", fmt::format("seat {} is out: expected a seat still in", s.current));
  const auto current = static_cast<std::size_t>(s.current);
  const SeatState& cur = s.seats[current];
  if (cur.acted)
    return fail(seat_at(current) + "/acted",
                fmt::format("seat {} is taking its turn: expected false", current));
  // A round's turns go down the turn order, one to each seat still in: the seats before the
  // current one have acted, the seats after it have not, and a seat out takes no turn.
  bool before = true;
  for (const std::uint8_t o : s.order) {
    const SeatState& seat = s.seats[o];
    if (o == current) {
      before = false;
    } else if (seat.acted != (before && !seat.out)) {
      return fail(seat_at(o) + "/acted",
                  seat.out
                      ? fmt::format("seat {} is out: expected false", o)
                      : fmt::format("seat {} comes {} the current seat {} in the turn order: expected {}", o,
                                    before ? "before" : "after", current, before));
    }
  }
  // Only a human seat rolls: a bot's die is rolled for it as BattleLoop begins its turn.
  if (s.step == TurnStep::Roll && cur.kind == SeatKind::Bot)
    return fail("/state/step",
                fmt::format("seat {} is a bot, whose die is rolled for it: expected \"rock\" or "
                            "\"card\", got \"roll\"",
                            current));
  if (s.step == TurnStep::Rock && (s.dice < 1 || s.dice > 6))
    return fail("/state/dice", fmt::format("a rock is to be chosen after a roll of {}", s.dice));
  const Element rock = rock_element(cur.rock);
  if (s.step == TurnStep::Card && !detail::has_playable(cur, rock))
    return fail(seat_at(current) + "/hand",
                fmt::format("seat {} must play a card: expected one that matches rock {} ({})", current,
                            cur.rock, element_name(rock)));
  const Phase decides = cur.kind == SeatKind::Human ? Phase::BattleTurn : Phase::BattleLoop;
  if (battle.phase() != decides)
    return fail("/phase", fmt::format("seat {} ({}) is taking its turn: expected {}", current,
                                      seat_kind_name(cur.kind), phase_name(decides)));
  return roll_fits_step();
}

}  // namespace battlecore::clash
