// Scenarios: set the encounter up, apply the overrides, each checked against the content and the
// battle, then begin the first turn (docs/clash.md#scenarios).

#include "battlecore/clash/scenario.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

#include "battlecore/clash/load.hpp"
#include "battlecore/content/scenario_io.hpp"
#include "clash/mechanics.hpp"
#include "clash/snapshot_io.hpp"

namespace battlecore::clash {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

namespace {

/// The keys the overrides read, in the order they read them.
constexpr std::array<std::string_view, 3> kOverrideKeys = {"round", "order", "seats"};

/// A hand override: the cards, at most the encounter's hand size. With a listed deck each card
/// is taken from the seat's own copy of the list (its hand is put back first), so every card of
/// the list stays accounted for. A hand that is too long has its cards checked all the same.
void read_hand(ObjectReader& r, const EncounterDef& e, SeatState& seat) {
  const json* list = r.optional_array("hand");
  if (list == nullptr) return;
  if (list->size() > e.rules.hand_size)
    r.error_at("hand", fmt::format("{} cards in hand; the encounter's hand holds at most {}", list->size(),
                                   e.rules.hand_size));
  FixedVec<Card, kMaxDeckSize> pile = seat.pile;
  if (e.rules.deck == DeckSource::Listed)
    for (Card c : seat.hand) pile.push_back(c);
  FixedVec<Card, kMaxHandSize> hand;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string p = content::child_pointer(r.pointer_of("hand"), i);
    ObjectReader cr(r.document(), (*list)[i], p, r.diagnostics());
    const std::size_t before = r.diagnostics().size();
    const Card card = read_card(cr);
    if (r.diagnostics().size() != before) continue;
    if (e.rules.deck == DeckSource::Listed) {
      std::size_t at = 0;
      while (at < pile.size() && !(pile[at] == card)) ++at;
      if (at == pile.size()) {
        r.diagnostics().add(
            r.document().diagnostic(p, fmt::format("{} {} is not left in the seat's copy of the listed deck",
                                                   element_name(card.element), card.value)));
        continue;
      }
      pile.erase_at(at);
    }
    // Past the hand size the override is refused already; its cards are only checked.
    if (i < e.rules.hand_size) hand.push_back(card);
  }
  seat.hand = hand;
  seat.pile = pile;
}

void read_seat(ObjectReader& r, const EncounterDef& e, SeatState& seat) {
  const std::int32_t lowest = e.rules.elimination == Elimination::AtZero ? 1 : 0;
  if (const json* h = r.optional_value("health")) {
    if (!h->is_number_integer() || h->get<std::int64_t>() < lowest || h->get<std::int64_t>() > e.rules.health)
      r.error_at("health",
                 fmt::format("expected health in [{}, {}] (a seat still in, at most the encounter's "
                             "health), got {}",
                             lowest, e.rules.health, h->dump()));
    else
      seat.health = static_cast<std::int32_t>(h->get<std::int64_t>());
  }
  if (const auto rock = r.optional_int("rock", 0, static_cast<std::int64_t>(e.rules.rocks) - 1))
    seat.rock = static_cast<std::uint8_t>(*rock);
  read_hand(r, e, seat);
  r.finish();
}

/// The turn order override: every seat index once. Each entry is checked, whatever the length.
void read_order(ObjectReader& r, std::size_t n, BattleState& s) {
  const json* order = r.optional_array("order");
  if (order == nullptr) return;
  const std::size_t before = r.diagnostics().size();
  if (order->size() != n)
    r.error_at("order", fmt::format("expected all {} seats in turn order, got {}", n, order->size()));
  FixedVec<std::uint8_t, kMaxSeats> out;
  std::array<bool, kMaxSeats> seen{};
  for (std::size_t i = 0; i < order->size(); ++i) {
    const json& v = (*order)[i];
    const std::string p = content::child_pointer(r.pointer_of("order"), i);
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 ||
        v.get<std::int64_t>() >= static_cast<std::int64_t>(n)) {
      r.diagnostics().add(r.document().diagnostic(
          p, fmt::format("expected a seat index in [0, {}], got {}", n - 1,
                         v.is_number_integer() ? v.dump() : content::describe_json_type(v))));
      continue;
    }
    const auto seat = static_cast<std::uint8_t>(v.get<std::int64_t>());
    if (seen[seat]) {
      r.diagnostics().add(r.document().diagnostic(p, fmt::format("seat {} is listed twice", seat)));
      continue;
    }
    seen[seat] = true;
    out.push_back(seat);
  }
  if (r.diagnostics().size() == before) s.order = out;
}

}  // namespace

void detail::BattleIo::begin(Battle& b, const BattleState& s) {
  b.state_ = s;
  Ctx x{b.state_, b.encounter(), b.events_};
  // The log tells the stated position, not the setup the overrides replaced: BattleStart's events
  // (its only ones so far) again, from the hands, order and rocks as they now stand. A battle
  // nobody records or hears (the sim's) skips it.
  if (b.events_.active()) {
    b.events_.clear_log();
    announce_setup(x);
    x.ev.emit_with(EventType::RoundStarted, [&] {
      return Event{.type = EventType::RoundStarted, .amount = static_cast<std::int32_t>(s.round)};
    });
  }
  const std::uint8_t first = remaining(b.state_)[0];
  begin_turn(x, first);
  b.pending_trigger_ = trigger_for(b.state_, first);
  b.has_pending_trigger_ = true;
  b.advance();
}

Result<Battle, Diagnostics> start_scenario(std::shared_ptr<const Catalog> catalog, const JsonDocument& doc,
                                           std::optional<std::uint64_t> seed, BattleOptions options) {
  const Catalog& c = *catalog;
  // The battle is set up to the first move (BattleStart has run) and begins on the overrides.
  const auto start = [](Battle& battle, EncounterId encounter, std::uint64_t battle_seed, ObjectReader&) {
    detail::BattleIo::set_up(battle, encounter, battle_seed);
    return true;
  };
  const auto overrides = [&](ObjectReader& r, Battle& battle) {
    const EncounterDef& e = c.encounters[battle.state().encounter];
    BattleState s = battle.state();
    if (const auto round = r.optional_int("round", 1, e.rules.round_limit))
      s.round = static_cast<std::uint32_t>(*round);
    read_order(r, e.seats.size(), s);
    content::read_entries(r, "seats", e.seats.size(), fmt::format("encounter '{}'", e.id), "seats",
                          [&](ObjectReader& sr, std::size_t i) {
                            if (sr.valid()) read_seat(sr, e, s.seats[i]);
                          });
    r.finish();
    if (!r.diagnostics().empty()) return false;
    detail::BattleIo::begin(battle, s);
    return true;
  };
  return content::start_scenario_frame(c, doc, Machine::kRules, kScenarioFormatVersion, kOverrideKeys, seed,
                                       Battle(catalog, options), start, overrides);
}

}  // namespace battlecore::clash
