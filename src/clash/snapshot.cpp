// Clash snapshots: every field of a Battle written to JSON and read back strictly.

#include "battlecore/clash/snapshot.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "battlecore/content/snapshot_io.hpp"
#include "clash/mechanics.hpp"
#include "clash/snapshot_io.hpp"

namespace battlecore::clash {

using nlohmann::json;

namespace {

using Bad = content::SnapshotError;
using In = content::SnapshotIn;

constexpr std::array<std::string_view, 4> kSteps = {"none", "roll", "rock", "card"};
constexpr std::array<std::string_view, 2> kSeatKinds = {"human", "bot"};
constexpr std::array<std::string_view, kElementCount> kElements = {"none",   "air",  "earth",
                                                                   "energy", "fire", "water"};

json card_json(Card c) { return json::array({element_name(c.element), c.value}); }

/// A card [element, value]; `real` asks for a playable card (an element, a value 1 to 10).
Card read_card(const json& v, const std::string& p, bool real) {
  if (!v.is_array() || v.size() != 2) throw Bad{p, "expected a card [element, value]"};
  Card c;
  c.element = static_cast<Element>(In::name_of(v[0], p + "/0", kElements));
  c.value = real ? static_cast<std::uint8_t>(In::number(v[1], p + "/1", kMinCardValue, kMaxCardValue))
                 : static_cast<std::uint8_t>(In::number(v[1], p + "/1", 0, 255));
  if (real && c.empty()) throw Bad{p + "/0", "expected an element other than none"};
  return c;
}

template <class Vec>
json cards_json(const Vec& cards) {
  json a = json::array();
  for (Card c : cards) a.push_back(card_json(c));
  return a;
}

/// At most `max` cards.
template <class Vec>
void read_cards(const In& in, std::string_view key, Vec& out, std::size_t max = Vec::capacity()) {
  const json& a = in.arr(key, std::min(max, Vec::capacity()), "cards");
  for (std::size_t i = 0; i < a.size(); ++i)
    out.push_back(read_card(a[i], content::child_pointer(in.ptr(key), i), true));
}

json state_json(const BattleState& s, const Catalog& c) {
  json seats = json::array();
  for (const SeatState& seat : s.seats)
    seats.push_back({{"kind", seat_kind_name(seat.kind)},
                     {"health", seat.health},
                     {"rock", seat.rock},
                     {"out", seat.out},
                     {"place", seat.place},
                     {"out_round", seat.out_round},
                     {"hand", cards_json(seat.hand)},
                     {"pile", cards_json(seat.pile)},
                     {"choice", seat.choice.empty() ? json(nullptr) : card_json(seat.choice)},
                     {"acted", seat.acted}});
  json order = json::array();
  for (std::uint8_t o : s.order) order.push_back(o);
  return {
      {"seed", s.seed},
      {"rng", content::rng_to_json(s.rng)},
      {"encounter", s.encounter < c.encounters.size() ? json(c.encounters[s.encounter].id) : json(nullptr)},
      {"round", s.round},
      {"seats", seats},
      {"order", order},
      {"current", s.current},
      {"step", kSteps[static_cast<std::size_t>(s.step)]},
      {"dice", s.dice},
      {"offered", json::array({s.offered[0], s.offered[1]})},
      {"offered_count", s.offered_count},
      {"sudden_deaths", s.sudden_deaths}};
}

/// The die of the current turn: 0 until rolled, then 1 to 6; while the seat picks its rock, the
/// two rocks the roll offers from where it stands.
void read_roll(const In& in, const BattleState& s, std::int64_t rocks) {
  if (s.step == TurnStep::Roll && s.dice != 0)
    throw Bad{in.ptr("dice"), fmt::format("the die is not rolled yet: expected 0, got {}", s.dice)};
  if ((s.step == TurnStep::Rock || s.step == TurnStep::Card) && s.dice == 0)
    throw Bad{in.ptr("dice"), "the die is rolled: expected a roll in [1, 6], got 0"};
  if (s.step != TurnStep::Rock) return;
  const std::uint8_t from = s.seats[static_cast<std::size_t>(s.current)].rock;
  const auto offered = offered_rocks(from, s.dice, static_cast<std::uint32_t>(rocks));
  for (std::size_t i = 0; i < 2; ++i)
    if (s.offered[i] != offered[i])
      throw Bad{content::child_pointer(in.ptr("offered"), i),
                fmt::format("a roll of {} from rock {} offers rocks {} and {}: expected {}, got {}", s.dice,
                            from, offered[0], offered[1], offered[i], s.offered[i])};
  const std::uint8_t count = offered[0] == offered[1] ? 1 : 2;
  if (s.offered_count != count)
    throw Bad{in.ptr("offered_count"), fmt::format("the roll offers {} different rocks: expected {}, got {}",
                                                   count, count, s.offered_count)};
}

/// A seat of a listed deck draws from its own copy of the list: what it holds in hand, in its
/// pile and on the table are cards of the list, no more of one than the list has.
void check_listed_cards(const In& seat, const EncounterDef& e, const SeatState& st, std::size_t i) {
  std::vector<Card> left = e.rules.listed_deck;
  const auto take = [&](Card card, const std::string& pointer) {
    const auto it = std::find(left.begin(), left.end(), card);
    if (it != left.end()) {
      left.erase(it);
      return;
    }
    const auto listed = std::count(e.rules.listed_deck.begin(), e.rules.listed_deck.end(), card);
    throw Bad{pointer, fmt::format("seat {} holds more {} {} cards than the encounter's deck lists ({})", i,
                                   element_name(card.element), card.value, listed)};
  };
  for (std::size_t k = 0; k < st.hand.size(); ++k)
    take(st.hand[k], content::child_pointer(seat.ptr("hand"), k));
  for (std::size_t k = 0; k < st.pile.size(); ++k)
    take(st.pile[k], content::child_pointer(seat.ptr("pile"), k));
  if (!st.choice.empty()) take(st.choice, seat.ptr("choice"));
}

void read_state(const In& in, const Catalog& c, BattleState& s) {
  s.seed = in.u64("seed");
  content::read_rng(in.obj("rng"), s.rng);
  const json& enc = in.at("encounter");
  if (enc.is_null()) {
    s.encounter = 0;  // a battle never started
  } else {
    if (!enc.is_string()) throw Bad{in.ptr("encounter"), "expected an encounter id"};
    const auto id = c.find_encounter(enc.get<std::string>());
    if (!id)
      throw Bad{in.ptr("encounter"), fmt::format("no encounter '{}' in the content", enc.get<std::string>())};
    s.encounter = *id;
  }
  const EncounterDef* e = c.encounters.empty() ? nullptr : &c.encounters[s.encounter];
  const std::size_t n = e == nullptr ? 0 : e->seats.size();
  const std::int64_t rocks = e == nullptr ? 0 : e->rules.rocks;
  s.round = static_cast<std::uint32_t>(in.num("round", 0, UINT32_MAX));
  const json& seats = in.arr("seats");
  if (!seats.empty() && seats.size() != n)
    throw Bad{in.ptr("seats"), fmt::format("expected {} seats (the encounter's), got {}", n, seats.size())};
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const In seat(seats[i], content::child_pointer(in.ptr("seats"), i));
    SeatState st;
    // Here n > 0, so there is an encounter: its seats, health, hand size and deck bound the seat.
    st.kind = static_cast<SeatKind>(seat.name("kind", kSeatKinds));
    if (st.kind != e->seats[i].kind)
      throw Bad{seat.ptr("kind"), fmt::format("expected \"{}\", the encounter's kind for seat {}",
                                              seat_kind_name(e->seats[i].kind), i)};
    // Health starts at the encounter's and a round's duels take at most one per other seat.
    st.health = static_cast<std::int32_t>(
        seat.num("health", -static_cast<std::int64_t>(kMaxSeats), std::int64_t{e->rules.health}));
    st.rock = static_cast<std::uint8_t>(seat.num("rock", 0, rocks - 1));
    st.out = seat.flag("out");
    // A seat gets its place (1 = first) and its round when it goes out; the end places the rest.
    st.place = static_cast<std::uint8_t>(seat.num("place", st.out ? 1 : 0, static_cast<std::int64_t>(n)));
    st.out_round = static_cast<std::uint32_t>(st.out ? seat.num("out_round", 1, s.round)
                                                     : seat.num("out_round", 0, UINT32_MAX));
    if (!st.out && st.out_round != 0)
      throw Bad{seat.ptr("out_round"),
                fmt::format("seat {} is still in: expected 0, got {}", i, st.out_round)};
    read_cards(seat, "hand", st.hand, e->rules.hand_size);
    read_cards(seat, "pile", st.pile);
    if (e->rules.deck != DeckSource::Listed && !st.pile.empty())
      throw Bad{seat.ptr("pile"), "the encounter deals random cards: expected an empty pile"};
    const json& choice = seat.at("choice");
    st.choice = choice.is_null() ? Card{} : read_card(choice, seat.ptr("choice"), true);
    st.acted = seat.flag("acted");
    if (!st.acted && !st.choice.empty())  // a card is played as the seat acts
      throw Bad{seat.ptr("choice"), fmt::format("seat {} has not acted this round: expected null", i)};
    if (e->rules.deck == DeckSource::Listed) check_listed_cards(seat, *e, st, i);
    s.seats.push_back(st);
  }
  const json& order = in.arr("order");
  if (order.size() != s.seats.size())
    throw Bad{in.ptr("order"),
              fmt::format("expected {} seats in the turn order, got {}", s.seats.size(), order.size())};
  for (std::size_t i = 0; i < order.size(); ++i)  // each seat once: check_invariants
    s.order.push_back(static_cast<std::uint8_t>(In::number(
        order[i], content::child_pointer(in.ptr("order"), i), 0, static_cast<std::int64_t>(n) - 1)));
  s.current = static_cast<SeatRef>(in.num("current", -1, static_cast<std::int64_t>(s.seats.size()) - 1));
  s.step = static_cast<TurnStep>(in.name("step", kSteps));
  s.dice = static_cast<std::uint8_t>(in.num("dice", 0, 6));
  const json& offered = in.arr("offered");
  if (offered.size() != 2) throw Bad{in.ptr("offered"), "expected 2 rocks"};
  for (std::size_t i = 0; i < 2; ++i)
    s.offered[i] = static_cast<std::uint8_t>(In::number(
        offered[i], content::child_pointer(in.ptr("offered"), i), 0, std::max<std::int64_t>(rocks - 1, 0)));
  s.offered_count = static_cast<std::uint8_t>(in.num("offered_count", 0, 2));
  s.sudden_deaths = static_cast<std::uint32_t>(in.num("sudden_deaths", 0, UINT32_MAX));
  if (s.step != TurnStep::None && (s.current < 0 || s.seats.empty()))
    throw Bad{in.ptr("current"), "a turn step is pending but no seat is current"};
  read_roll(in, s, rocks);
}

constexpr std::size_t kEventTypes = static_cast<std::size_t>(EventType::SeatPlaced) + 1;

SeatRef seat_ref(const json& v, const std::string& p) {
  return static_cast<SeatRef>(In::number(v, p, -128, 127));
}

}  // namespace

namespace detail {

json BattleIo::snapshot(const Battle& b) {
  const Catalog& c = *b.catalog_;
  json actions = json::array();
  for (const Action& a : b.actions_) actions.push_back(action_to_json(a));
  json events = json::array();
  for (const Event& e : b.events_.log())
    events.push_back({event_type_name(e.type), e.seat, e.other, e.winner, card_json(e.card),
                      card_json(e.other_card), e.amount, e.extra});
  json out = content::snapshot_header(kSnapshotFormatVersion, Machine::kRules, c.content_hash);
  out.update(json{
      {"options", {{"event_log", b.options_.event_log}, {"record_history", b.options_.record_history}}},
      {"started", b.started_},
      {"phase", phase_name(b.driver_.current())},
      {"moves", b.driver_.moves()},
      {"pending_trigger", b.has_pending_trigger_ ? json(trigger_name(b.pending_trigger_)) : json(nullptr)},
      {"state", state_json(b.state_, c)},
      {"history", content::history_to_json<Machine>(b.driver_.history())},
      {"actions", actions},
      {"events", events}});
  return out;
}

Result<Battle> BattleIo::restore(const std::shared_ptr<const Catalog>& catalog, const json& j) {
  return content::restore_snapshot<Machine, Battle, BattleOptions>(
      catalog, j, kSnapshotFormatVersion,
      [&](const In& root, BattleOptions options) -> Result<Battle> {
        Battle b(catalog, options);
        b.started_ = root.flag("started");
        read_state(root.obj("state"), *catalog, b.state_);
        if (b.started_ == b.state_.seats.empty())
          throw Bad{"/state/seats",
                    b.started_ ? "a started battle has seats" : "a battle never started has no seats"};
        content::restore_driver<Machine>(root, b.driver_, b.has_pending_trigger_, b.pending_trigger_);
        // The manager takes a queued move before anything else happens (advance), so no snapshot,
        // not even one taken from a listener, has one: restored, it would be taken on the next
        // action, whatever the turn (a round ending in the middle of a seat's turn).
        if (b.has_pending_trigger_)
          throw Bad{"/pending_trigger",
                    fmt::format("expected null: the manager has no move queued between two "
                                "steps, got \"{}\"",
                                trigger_name(b.pending_trigger_))};
        b.actions_ = content::read_actions<Action>(root, [](const json& a) { return action_from_json(a); });
        auto log = content::read_events<Event>(
            root, 8, "[type, seat, other, winner, card, other_card, amount, extra]", kEventTypes,
            event_type_name, [](const json& e, const std::string& p, Event& ev) {
              ev.seat = seat_ref(e[1], p + "/1");
              ev.other = seat_ref(e[2], p + "/2");
              ev.winner = seat_ref(e[3], p + "/3");
              ev.card = read_card(e[4], p + "/4", false);
              ev.other_card = read_card(e[5], p + "/5", false);
              ev.amount = static_cast<std::int32_t>(In::number(e[6], p + "/6", INT32_MIN, INT32_MAX));
              ev.extra = static_cast<std::int32_t>(In::number(e[7], p + "/7", INT32_MIN, INT32_MAX));
            });
        b.events_.restore_log(std::move(log));
        // The state as a whole (places, the end, the pending turn): what the rules keep between
        // two actions, at the value at fault.
        if (std::string why, where; b.started_ && !check_invariants(b, &why, &where)) throw Bad{where, why};
        return b;
      },
      [](const Battle& b) { return snapshot(b); });
}

}  // namespace detail

json snapshot(const Battle& battle) { return detail::BattleIo::snapshot(battle); }

Result<Battle> restore(std::shared_ptr<const Catalog> catalog, const json& snapshot) {
  return detail::BattleIo::restore(catalog, snapshot);
}

}  // namespace battlecore::clash
