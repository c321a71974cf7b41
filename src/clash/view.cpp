#include "battlecore/clash/view.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace battlecore::clash {

namespace {

nlohmann::json card_json(Card c) {
  if (c.empty()) return nullptr;
  return {{"element", element_name(c.element)}, {"value", c.value}};
}

std::string card_text(Card c) {
  return c.empty() ? std::string("no card") : fmt::format("{} {}", element_name(c.element), c.value);
}

std::string_view step_name(TurnStep step) {
  switch (step) {
    case TurnStep::None:
      return "none";
    case TurnStep::Roll:
      return "roll";
    case TurnStep::Rock:
      return "rock";
    case TurnStep::Card:
      return "card";
  }
  return "?";
}

std::string seat_text(const Battle& b, SeatRef seat) {
  if (seat < 0 || static_cast<std::size_t>(seat) >= b.encounter().seats.size()) return "nobody";
  return fmt::format("{} (seat {})", b.encounter().seats[static_cast<std::size_t>(seat)].name, seat);
}

}  // namespace

nlohmann::json state_view(const Battle& battle) {
  const BattleState& s = battle.state();
  const EncounterDef& e = battle.encounter();
  nlohmann::json seats = nlohmann::json::array();
  for (std::size_t i = 0; i < s.seats.size(); ++i) {
    const SeatState& seat = s.seats[i];
    nlohmann::json hand = nlohmann::json::array();
    for (Card c : seat.hand) hand.push_back(card_json(c));
    seats.push_back({{"seat", i},
                     {"name", e.seats[i].name},
                     {"kind", seat_kind_name(seat.kind)},
                     {"health", seat.health},
                     {"rock", seat.rock},
                     {"rock_element", element_name(rock_element(seat.rock))},
                     {"out", seat.out},
                     {"place", seat.place == 0 ? nlohmann::json(nullptr) : nlohmann::json(seat.place)},
                     {"hand", hand},
                     {"deck_left", seat.pile.size()},
                     {"choice", card_json(seat.choice)},
                     {"acted", seat.acted}});
  }
  nlohmann::json order = nlohmann::json::array();
  for (std::uint8_t o : s.order) order.push_back(o);
  nlohmann::json offered = nlohmann::json::array();
  for (std::size_t i = 0; i < s.offered_count; ++i) offered.push_back(s.offered[i]);
  nlohmann::json options = nlohmann::json::array();
  const Decision d = battle.decision();
  for (const Action& a : d.options) options.push_back(action_to_json(a));
  return {
      {"rules", "clash"},
      {"encounter", e.id},
      {"phase", phase_name(battle.phase())},
      {"status", status_name(battle.status())},
      {"round", s.round},
      {"rocks", e.rules.rocks},
      {"order", order},
      {"current", s.current >= 0 ? nlohmann::json(s.current) : nlohmann::json(nullptr)},
      {"step", step_name(s.step)},
      {"dice", s.dice},
      {"offered", offered},
      {"seats", seats},
      {"decision",
       {{"seat", d.who.kind == Decider::Kind::Seat ? nlohmann::json(d.who.index) : nlohmann::json(nullptr)},
        {"options", options}}}};
}

std::string action_label(const Battle& battle, const Action& action) {
  switch (action.kind) {
    case ActionKind::Roll:
      return "roll the die";
    case ActionKind::ChooseRock:
      return fmt::format("move to rock {} ({})", action.value, element_name(rock_element(action.value)));
    case ActionKind::PlayCard: {
      const auto& hand = battle.state().seats[static_cast<std::size_t>(action.seat)].hand;
      const Card c = action.value < hand.size() ? hand[action.value] : Card{};
      return fmt::format("play {} (slot {})", card_text(c), action.value);
    }
  }
  return "?";
}

namespace {
/// A bot's draw: its card stays as hidden as the rest of its hand.
bool hidden_draw(const Battle& b, const Event& e) {
  return e.type == EventType::CardDealt &&
         b.state().seats[static_cast<std::size_t>(e.seat)].kind == SeatKind::Bot;
}
}  // namespace

std::string dealt_label(const Battle& battle, std::span<const Event> run) {
  if (run.size() == 1) return event_label(battle, run.front());
  const SeatRef seat = run.front().seat;
  if (hidden_draw(battle, run.front()))
    return fmt::format("{} draws {} cards", seat_text(battle, seat), run.size());
  std::vector<std::string> cards;
  for (const Event& e : run) cards.push_back(card_text(e.card));
  return fmt::format("{} draws {}", seat_text(battle, seat), fmt::join(cards, ", "));
}

nlohmann::json table_event_json(const Battle& battle, const Event& event) {
  nlohmann::json j = event_to_json(event);
  if (hidden_draw(battle, event)) j.erase("card");
  return j;
}

std::string event_label(const Battle& b, const Event& e) {
  switch (e.type) {
    case EventType::PhaseChanged:
      return fmt::format("[{} -> {}]", phase_name(static_cast<Phase>(e.amount)),
                         phase_name(static_cast<Phase>(e.extra)));
    case EventType::RoundStarted:
      return fmt::format("--- round {} ---", e.amount);
    case EventType::DiceRolled:
      // Both ways round the ring may end on one rock (a roll of half the ring): one rock offered.
      if (e.card.value == e.other_card.value)
        return fmt::format("{} rolls {}: rock {}", seat_text(b, e.seat), e.amount, e.card.value);
      return fmt::format("{} rolls {}: rock {} or rock {}", seat_text(b, e.seat), e.amount, e.card.value,
                         e.other_card.value);
    case EventType::SeatMoved:
      return fmt::format("{} moves from rock {} to rock {} ({})", seat_text(b, e.seat), e.amount, e.extra,
                         element_name(rock_element(static_cast<std::uint32_t>(e.extra))));
    case EventType::CardPlayed:
      return fmt::format("{} plays {}", seat_text(b, e.seat), card_text(e.card));
    case EventType::Passed:
      return fmt::format("{} has no card for rock {} and passes", seat_text(b, e.seat), e.amount);
    case EventType::DuelResolved:
      return fmt::format("duel: {} with {} vs {} with {}: {}", seat_text(b, e.seat), card_text(e.card),
                         seat_text(b, e.other), card_text(e.other_card),
                         e.winner < 0 ? std::string("tie") : seat_text(b, e.winner) + " wins");
    case EventType::Damaged:
      return fmt::format("{} loses {} health ({} left)", seat_text(b, e.seat), e.amount, e.extra);
    case EventType::Eliminated:
      return fmt::format("{} is out ({}), place {}", seat_text(b, e.seat),
                         out_reason_name(static_cast<OutReason>(e.extra)), e.amount);
    case EventType::RoundEnded:
      return fmt::format("round {} over, {} seat(s) remain", e.amount, e.extra);
    case EventType::BattleEnded: {
      std::vector<std::string> places;
      for (std::size_t i = 0; i < b.state().seats.size(); ++i)
        places.push_back(
            fmt::format("{} place {}", seat_text(b, static_cast<SeatRef>(i)), unpack_place(e.amount, i)));
      return fmt::format("battle over: {}", fmt::join(places, ", "));
    }
    case EventType::CardDealt:
      return hidden_draw(b, e) ? fmt::format("{} draws a card", seat_text(b, e.seat))
                               : fmt::format("{} draws {}", seat_text(b, e.seat), card_text(e.card));
    case EventType::SuddenDeathBegun:
      return fmt::format(
          "everyone went out together: sudden death {} brings {} seats back with their last health", e.amount,
          e.extra);
    case EventType::TurnOrderSet: {
      std::vector<std::string> seats;
      for (std::size_t i = 0; i < static_cast<std::size_t>(e.extra) && i < kMaxSeats; ++i)
        seats.push_back(seat_text(b, static_cast<SeatRef>(unpack_order(e.amount, i))));
      return fmt::format("turn order: {}", fmt::join(seats, ", "));
    }
    case EventType::SeatPlaced:
      return fmt::format("{} starts on rock {} ({})", seat_text(b, e.seat), e.amount,
                         element_name(rock_element(static_cast<std::uint32_t>(e.amount))));
  }
  return "?";
}

std::string render_text(const Battle& battle) {
  const BattleState& s = battle.state();
  const EncounterDef& e = battle.encounter();
  std::string out = fmt::format("round {}  phase {}  ring of {} rocks\n", s.round, phase_name(battle.phase()),
                                e.rules.rocks);
  out += "turn order:";
  for (std::uint8_t o : s.order) out += fmt::format(" {}{}", e.seats[o].name, s.seats[o].out ? " (out)" : "");
  out += "\n";
  for (std::size_t i = 0; i < s.seats.size(); ++i) {
    const SeatState& seat = s.seats[i];
    out +=
        fmt::format("  seat {} {:<10} {:<5} health {:>2}  rock {:>2} ({}){}{}\n", i, e.seats[i].name,
                    seat_kind_name(seat.kind), seat.health, seat.rock, element_name(rock_element(seat.rock)),
                    seat.acted ? fmt::format("  played {}", card_text(seat.choice)) : std::string(),
                    seat.place ? fmt::format("  place {}", seat.place) : std::string());
  }
  if (s.current >= 0 && battle.status() == Status::AwaitingDecision) {
    const SeatState& seat = s.seats[static_cast<std::size_t>(s.current)];
    out += fmt::format("{} to {}", seat_text(battle, s.current),
                       s.step == TurnStep::Roll   ? "roll"
                       : s.step == TurnStep::Rock ? "pick a rock"
                                                  : "pick a card");
    if (s.step == TurnStep::Rock) out += fmt::format(" (rolled {})", s.dice);
    out += "\n  hand:";
    for (std::size_t i = 0; i < seat.hand.size(); ++i)
      out += fmt::format(" [{}] {}", i, card_text(seat.hand[i]));
    out += "\n";
  }
  return out;
}

}  // namespace battlecore::clash
