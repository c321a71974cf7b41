#include "battlecore/clash/events.hpp"

#include <nlohmann/json.hpp>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/clash/phases.hpp"

namespace battlecore::clash {

std::string_view out_reason_name(OutReason r) {
  switch (r) {
    case OutReason::Health:
      return "health";
    case OutReason::NoCards:
      return "no_cards";
    case OutReason::RankingPass:
      return "ranking_pass";
  }
  return "?";
}

std::string_view event_type_name(EventType t) {
  switch (t) {
    case EventType::PhaseChanged:
      return "PhaseChanged";
    case EventType::RoundStarted:
      return "RoundStarted";
    case EventType::DiceRolled:
      return "DiceRolled";
    case EventType::SeatMoved:
      return "SeatMoved";
    case EventType::CardPlayed:
      return "CardPlayed";
    case EventType::Passed:
      return "Passed";
    case EventType::DuelResolved:
      return "DuelResolved";
    case EventType::Damaged:
      return "Damaged";
    case EventType::Eliminated:
      return "Eliminated";
    case EventType::RoundEnded:
      return "RoundEnded";
    case EventType::BattleEnded:
      return "BattleEnded";
    case EventType::CardDealt:
      return "CardDealt";
    case EventType::SuddenDeathBegun:
      return "SuddenDeathBegun";
    case EventType::TurnOrderSet:
      return "TurnOrderSet";
    case EventType::SeatPlaced:
      return "SeatPlaced";
  }
  return "?";
}

namespace {
// One byte each, the first in the lowest: the seats of a battle fit in an event's 32 bits.
static_assert(kMaxSeats <= 4);

std::int32_t pack_bytes(const std::uint8_t* bytes, std::size_t count) {
  std::uint32_t packed = 0;
  for (std::size_t i = 0; i < count && i < 4; ++i) packed |= std::uint32_t{bytes[i]} << (8 * i);
  return static_cast<std::int32_t>(packed);
}

std::uint8_t unpack_byte(std::int32_t packed, std::size_t at) {
  if (at >= 4) return 0;
  return static_cast<std::uint8_t>((static_cast<std::uint32_t>(packed) >> (8 * at)) & 0xFFu);
}
}  // namespace

std::int32_t pack_places(const std::uint8_t* places, std::size_t seats) { return pack_bytes(places, seats); }

std::uint8_t unpack_place(std::int32_t packed, std::size_t seat) { return unpack_byte(packed, seat); }

std::int32_t pack_order(const std::uint8_t* order, std::size_t seats) { return pack_bytes(order, seats); }

std::uint8_t unpack_order(std::int32_t packed, std::size_t position) { return unpack_byte(packed, position); }

namespace {
nlohmann::json card_json(Card c) {
  if (c.empty()) return nullptr;
  return {{"element", element_name(c.element)}, {"value", c.value}};
}
}  // namespace

nlohmann::json event_to_json(const Event& e) {
  nlohmann::json j = {{"type", event_type_name(e.type)}};
  switch (e.type) {
    case EventType::PhaseChanged:
      j["from"] = phase_name(static_cast<Phase>(e.amount));
      j["to"] = phase_name(static_cast<Phase>(e.extra));
      j["trigger"] = trigger_name(static_cast<Trigger>(e.winner));
      break;
    case EventType::RoundStarted:
      j["round"] = e.amount;
      break;
    case EventType::DiceRolled:
      j["seat"] = e.seat;
      j["roll"] = e.amount;
      j["rocks"] = {e.card.value, e.other_card.value};
      break;
    case EventType::SeatMoved:
      j["seat"] = e.seat;
      j["from"] = e.amount;
      j["to"] = e.extra;
      j["rock_element"] = element_name(rock_element(static_cast<std::uint32_t>(e.extra)));
      break;
    case EventType::CardPlayed:
      j["seat"] = e.seat;
      j["card"] = card_json(e.card);
      j["rock"] = e.amount;
      break;
    case EventType::Passed:
      j["seat"] = e.seat;
      j["rock"] = e.amount;
      break;
    case EventType::DuelResolved:
      j["seat"] = e.seat;
      j["other"] = e.other;
      j["card"] = card_json(e.card);
      j["other_card"] = card_json(e.other_card);
      j["winner"] = e.winner >= 0 ? nlohmann::json(e.winner) : nlohmann::json(nullptr);
      break;
    case EventType::Damaged:
      j["seat"] = e.seat;
      j["damage"] = e.amount;
      j["health"] = e.extra;
      break;
    case EventType::Eliminated:
      j["seat"] = e.seat;
      j["place"] = e.amount;
      j["reason"] = out_reason_name(static_cast<OutReason>(e.extra));
      break;
    case EventType::RoundEnded:
      j["round"] = e.amount;
      j["remaining"] = e.extra;
      break;
    case EventType::BattleEnded: {
      nlohmann::json places = nlohmann::json::array();
      for (std::size_t seat = 0; seat < 4 && unpack_place(e.amount, seat) != 0; ++seat)
        places.push_back(unpack_place(e.amount, seat));
      j["places"] = places;
      break;
    }
    case EventType::CardDealt:
      j["seat"] = e.seat;
      j["card"] = card_json(e.card);
      break;
    case EventType::SuddenDeathBegun:
      j["sudden_death"] = e.amount;
      j["seats_back"] = e.extra;
      break;
    case EventType::TurnOrderSet: {
      nlohmann::json order = nlohmann::json::array();
      for (std::size_t i = 0; i < static_cast<std::size_t>(e.extra) && i < kMaxSeats; ++i)
        order.push_back(unpack_order(e.amount, i));
      j["order"] = order;
      break;
    }
    case EventType::SeatPlaced:
      j["seat"] = e.seat;
      j["rock"] = e.amount;
      j["rock_element"] = element_name(rock_element(static_cast<std::uint32_t>(e.amount)));
      break;
  }
  return j;
}

}  // namespace battlecore::clash
