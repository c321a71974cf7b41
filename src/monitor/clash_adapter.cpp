// The clash's monitor adapter: the state view of view.hpp seen from the human seats (the bots'
// hands as counts), plus the ring, the last round's duels and the ranking. Bot seats are played
// by the server: after the battle starts and after every human action, the bots' decisions are
// answered by the random policy seeded with policy_seed(battle seed), as `battlecore play --rules
// clash` does, up to the next human decision. The action list holds the human seats' actions only, so a
// replay (encounter, seed, human actions) plays the same bot moves again. A replay file's battle
// takes the bots' moves from the file instead, and makes no other: they may come from another
// policy (`sim --record`), and a file lists every seat's moves, as `battlecore replay` plays them,
// each at its place in the file's one list of moves.

#include "battlecore/monitor/clash_adapter.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "battlecore/clash/battle.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/clash/snapshot.hpp"
#include "battlecore/clash/view.hpp"
#include "battlecore/sim/clash_rules.hpp"
#include "catalog_adapter.hpp"

namespace battlecore::monitor {

namespace {

namespace cl = battlecore::clash;

nlohmann::json card_json(cl::Card c) {
  if (c.empty()) return nullptr;
  return {{"element", cl::element_name(c.element)}, {"value", c.value}};
}

std::string_view step_name(cl::TurnStep step) {
  switch (step) {
    case cl::TurnStep::Roll:
      return "roll";
    case cl::TurnStep::Rock:
      return "rock";
    case cl::TurnStep::Card:
      return "card";
    case cl::TurnStep::None:
      break;
  }
  return "none";
}

class ClashBattle final : public MonitorBattle {
 public:
  explicit ClashBattle(std::shared_ptr<const cl::Catalog> catalog)
      : catalog_(catalog), battle_(std::move(catalog)) {}

  Result<void, Refused> start(std::string_view encounter, std::uint64_t seed) {
    start_ = {std::string(encounter), seed, nullptr};
    auto policy = cl::make_policy("random");
    if (!policy) return Refused{"engine_error", policy.error().message};
    bots_ = std::move(policy).value();
    bots_->reset(policy_seed(seed));
    auto started = battle_.start_battle(encounter, seed);
    if (!started) return Refused{"unknown_encounter", started.error().message};
    return play_bots();
  }

  /// A replay's battle: the bots make the moves of `bot_moves`, in order, each at its place among
  /// the human actions when the places are given (RuleSetAdapter::start_replay).
  Result<void, Refused> start(std::string_view encounter, std::uint64_t seed, const ServerMoves& bot_moves) {
    if (!bot_moves.moves.is_array())
      return Refused{"bad_request", "the bots' moves must be an array of actions"};
    if (!bot_moves.places.empty() && (bot_moves.places.size() != bot_moves.moves.size() ||
                                      !std::is_sorted(bot_moves.places.begin(), bot_moves.places.end())))
      return Refused{"bad_request", "the bots' moves need one place each, in the order of the moves"};
    bot_moves_ = bot_moves.moves;
    places_ = bot_moves.places;
    scripted_ = true;
    return start(encounter, seed);
  }

  nlohmann::json state() const override {
    nlohmann::json j = cl::state_view(battle_);
    const cl::BattleState& s = battle_.state();
    const cl::EncounterDef& enc = battle_.encounter();
    j["turn"] = s.round;
    j["over"] = battle_.is_battle_over();
    j["won"] = battle_.is_battle_over() ? nlohmann::json(human_won()) : nlohmann::json(nullptr);
    j["encounter_name"] = enc.name;
    j["max_health"] = enc.rules.health;
    j.erase("decision");  // the decision has its own view
    // The human seats see their own hands; every other hand is a count.
    for (auto& seat : j["seats"]) {
      const auto i = seat["seat"].get<std::size_t>();
      seat["hand_count"] = s.seats[i].hand.size();
      if (s.seats[i].kind != cl::SeatKind::Human) seat.erase("hand");
    }
    nlohmann::json ring = nlohmann::json::array();
    for (std::uint32_t r = 0; r < enc.rules.rocks; ++r) ring.push_back(cl::element_name(cl::rock_element(r)));
    j["ring"] = ring;
    j["duels"] = last_duels();
    nlohmann::json ranking = nlohmann::json::array();
    if (battle_.is_battle_over()) {
      for (std::size_t i = 0; i < s.seats.size(); ++i)
        ranking.push_back({{"seat", i}, {"name", enc.seats[i].name}, {"place", s.seats[i].place}});
      std::stable_sort(ranking.begin(), ranking.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["place"].get<int>() < b["place"].get<int>();
      });
    }
    j["ranking"] = ranking;
    return j;
  }

  nlohmann::json decision() const override {
    const cl::Decision d = battle_.decision();
    const cl::BattleState& s = battle_.state();
    nlohmann::json options = nlohmann::json::array();
    for (std::size_t i = 0; i < d.options.size(); ++i)
      options.push_back({{"index", i},
                         {"action", cl::action_to_json(d.options[i])},
                         {"label", cl::action_label(battle_, d.options[i])}});
    const bool deciding = d.who.kind == Decider::Kind::Seat;
    nlohmann::json j = {{"status", status_name(battle_.status())},
                        {"who", deciding ? "seat" : "nobody"},
                        {"seat", deciding ? nlohmann::json(d.who.index) : nlohmann::json(nullptr)},
                        {"step", deciding ? step_name(s.step) : "none"},
                        {"dice", s.dice},
                        {"options", options}};
    // Every card of the deciding seat's hand, with whether it can be played now and why not.
    nlohmann::json cards = nlohmann::json::array();
    if (deciding) {
      const cl::SeatState& seat = s.seats[static_cast<std::size_t>(d.who.index)];
      const cl::Element rock = cl::rock_element(seat.rock);
      for (std::size_t slot = 0; slot < seat.hand.size(); ++slot) {
        const bool offered = std::any_of(d.options.begin(), d.options.end(), [&](const cl::Action& a) {
          return a.kind == cl::ActionKind::PlayCard && a.value == slot;
        });
        std::string reason;
        if (!offered)
          reason = s.step != cl::TurnStep::Card ? "roll and pick a rock first"
                                                : fmt::format("rock {} is {}: play a card of that element",
                                                              seat.rock, cl::element_name(rock));
        cards.push_back({{"slot", slot},
                         {"card", card_json(seat.hand[slot])},
                         {"playable", offered},
                         {"reason", reason}});
      }
    }
    j["cards"] = cards;
    return j;
  }

  Result<void, Refused> submit(const nlohmann::json& action) override {
    if (auto missing = missing_bot_move()) return *missing;
    auto done = detail::submit_json(battle_, action, &cl::action_from_json);
    if (!done) return done.error();
    human_actions_.push_back(done.value());
    return play_bots();
  }

  std::size_t event_count() const override { return battle_.events().log().size(); }
  nlohmann::json event(std::size_t i) const override {
    const cl::Event& e = battle_.events().log()[i];
    nlohmann::json j = cl::table_event_json(battle_, e);
    j["text"] = cl::event_label(battle_, e);
    return j;
  }
  std::size_t transition_count() const override { return battle_.history().size(); }
  nlohmann::json transition(std::size_t i) const override {
    return detail::transition_json<cl::Machine>(battle_.history()[i]);
  }
  nlohmann::json actions() const override { return detail::actions_json(human_actions_); }
  std::string state_hash() const override { return detail::hash_hex(battle_.state_hash()); }
  nlohmann::json engine_snapshot() const override { return cl::snapshot(battle_); }
  nlohmann::ordered_json replay() const override {
    return detail::replay_json<sim::ClashRules>(catalog_, start_, battle_.actions());
  }

  /// A bot seat's move: the server plays the bots (play_bots).
  bool server_move(const nlohmann::json& action) const override {
    const auto parsed = cl::action_from_json(action);
    if (!parsed) return false;
    const auto& seats = battle_.state().seats;
    const auto seat = static_cast<std::size_t>(parsed.value().seat);
    return seat < seats.size() && seats[seat].kind == cl::SeatKind::Bot;
  }

  /// A replay's bot moves made so far; nullopt when the server's policy plays the bots.
  std::optional<nlohmann::json> server_moves_made() const override {
    if (!scripted_) return std::nullopt;
    nlohmann::json made = nlohmann::json::array();
    for (std::size_t k = 0; k < next_bot_move_; ++k) made.push_back(bot_moves_[k]);
    return made;
  }

  /// The first of a replay's bot moves the battle has not made, once every human move is made: the
  /// battle waits on a human seat (one over has refused it already, in play_bots). A move given
  /// with its place was made or refused there (play_placed_bot_moves).
  std::optional<Refused> unused_server_move() const override {
    if (!scripted_ || next_bot_move_ == bot_moves_.size()) return std::nullopt;
    return unused_bot_move("the battle never makes this bot move",
                           "and the replay has no move of theirs left");
  }

  /// "duels": every duel so far, by round; "moves": every action, the bots' ones included.
  std::optional<nlohmann::json> detail(std::string_view name) const override {
    if (name == "duels") return nlohmann::json{{"rounds", duels_by_round()}};
    if (name == "moves") {
      return nlohmann::json{{"moves", detail::actions_json(battle_.actions())}};
    }
    return std::nullopt;
  }

 private:
  /// Answers every bot decision up to the next human one (or the end): with the random policy,
  /// or in a replay's battle with its next bot move, until those run out. A replay's bot move
  /// left once the battle is over is refused, as a human's move there is. A replay whose bot
  /// moves have their places makes those instead (play_placed_bot_moves).
  Result<void, Refused> play_bots() {
    if (scripted_ && !places_.empty()) return play_placed_bot_moves();
    std::vector<cl::Action> options;
    while (battle_.status() == Status::AwaitingDecision) {
      const cl::SeatRef seat = battle_.state().current;
      if (battle_.state().seats[static_cast<std::size_t>(seat)].kind != cl::SeatKind::Bot) return {};
      if (scripted_) {
        if (next_bot_move_ >= bot_moves_.size()) return {};  // the replay ends here: the bot waits
        if (auto refused = play_next_bot_move()) return *refused;
        continue;
      }
      battle_.legal_actions(options);
      const cl::Action chosen = options[bots_->choose(battle_, options)];
      if (auto done = battle_.submit(chosen); !done)
        throw std::logic_error("a bot's legal option was refused: " + done.error().message);
    }
    if (scripted_ && battle_.is_battle_over() && next_bot_move_ < bot_moves_.size())
      if (auto refused = play_next_bot_move()) return *refused;  // refused: the battle is over
    return {};
  }

  /// In a replay's battle whose bot moves have their places: makes every one listed before the
  /// next human action, as `battlecore replay` submits each action of a file in the file's order.
  /// One listed where a human seat is to decide is refused (unused_bot_move), and so is any the
  /// engine refuses; a bot to decide before the next one's place waits, and the human action
  /// then submitted is refused (missing_bot_move).
  Result<void, Refused> play_placed_bot_moves() {
    while (next_bot_move_ < bot_moves_.size() && places_[next_bot_move_] <= human_actions_.size()) {
      if (deciding_kind() == cl::SeatKind::Human)
        return unused_bot_move("the battle does not make this bot move here",
                               "and the replay lists no move of theirs before it");
      if (auto refused = play_next_bot_move()) return *refused;
    }
    return {};
  }

  /// The kind of the seat to decide; nullopt when nobody is (the battle is over).
  std::optional<cl::SeatKind> deciding_kind() const {
    if (battle_.status() != Status::AwaitingDecision) return std::nullopt;
    return battle_.state().seats[static_cast<std::size_t>(battle_.state().current)].kind;
  }

  /// The refusal of the replay's next bot move where a human seat is to decide: `what` happens to
  /// it, the seat, then `why`.
  Refused unused_bot_move(std::string_view what, std::string_view why) const {
    const cl::SeatRef seat = battle_.state().current;
    return Refused{"unused_bot_move",
                   fmt::format("{}: it waits on seat {} ({}, a human seat), {}", what, seat,
                               battle_.encounter().seats[static_cast<std::size_t>(seat)].name, why),
                   next_bot_move_};
  }

  /// In a replay's battle at a bot's decision, the refusal of a human action: the server makes no
  /// bot move of its own there, as `battlecore replay` makes none, and the replay's next one, if
  /// it has its place, comes after the action.
  std::optional<Refused> missing_bot_move() const {
    if (!scripted_ || deciding_kind() != cl::SeatKind::Bot) return std::nullopt;
    const cl::SeatRef seat = battle_.state().current;
    const std::string left =
        bot_moves_.empty()
            ? std::string(
                  "the replay lists no bot move (a replay file lists every seat's moves, the bots' too)")
        : next_bot_move_ == bot_moves_.size()
            ? fmt::format("the replay's {} bot moves are all made", bot_moves_.size())
            : std::string("the replay lists the next bot move after this one");
    return Refused{"missing_bot_move",
                   fmt::format("seat {} ({}, a bot) decides before this move, and {}", seat,
                               battle_.encounter().seats[static_cast<std::size_t>(seat)].name, left)};
  }

  /// Submits the replay's next bot move; its refusal names its index in the replay's bot moves.
  std::optional<Refused> play_next_bot_move() {
    const std::size_t k = next_bot_move_++;
    auto done = detail::submit_json(battle_, bot_moves_[k], &cl::action_from_json);
    if (done) return std::nullopt;
    Refused refused = std::move(done).error();
    refused.server_move = k;
    return refused;
  }

  bool human_won() const {
    const auto& seats = battle_.state().seats;
    return std::any_of(seats.begin(), seats.end(),
                       [](const cl::SeatState& s) { return s.kind == cl::SeatKind::Human && s.place == 1; });
  }

  /// Every duel of the battle: [{"round", "duels": [{seat, other, card, other_card, winner}]}].
  nlohmann::json duels_by_round() const {
    nlohmann::json rounds = nlohmann::json::array();
    std::int32_t round = 0;
    for (const cl::Event& e : battle_.events().log()) {
      if (e.type == cl::EventType::RoundStarted) round = e.amount;
      if (e.type != cl::EventType::DuelResolved) continue;
      if (rounds.empty() || rounds.back()["round"] != round)
        rounds.push_back({{"round", round}, {"duels", nlohmann::json::array()}});
      rounds.back()["duels"].push_back(
          {{"seat", e.seat},
           {"other", e.other},
           {"card", card_json(e.card)},
           {"other_card", card_json(e.other_card)},
           {"winner", e.winner >= 0 ? nlohmann::json(e.winner) : nlohmann::json(nullptr)}});
    }
    return rounds;
  }

  /// The duels of the last round the referee judged ({"round": 0, "duels": []} before any).
  nlohmann::json last_duels() const {
    nlohmann::json rounds = duels_by_round();
    if (rounds.empty()) return {{"round", 0}, {"duels", nlohmann::json::array()}};
    return rounds.back();
  }

  std::shared_ptr<const cl::Catalog> catalog_;
  sim::BattleStart start_;  ///< the encounter and seed, for the replay
  cl::Battle battle_;
  std::unique_ptr<cl::Policy> bots_;
  bool scripted_ = false;                               ///< the bots make bot_moves_, not bots_'s
  nlohmann::json bot_moves_ = nlohmann::json::array();  ///< a replay's bot moves, in order
  /// Each bot move's place: how many human actions the replay lists before it (ServerMoves::places).
  std::vector<std::size_t> places_;
  std::size_t next_bot_move_ = 0;
  std::vector<cl::Action> human_actions_;
};

}  // namespace

std::shared_ptr<const RuleSetAdapter> make_clash_adapter(std::shared_ptr<const clash::Catalog> catalog) {
  return std::make_shared<detail::CatalogAdapter<cl::Machine, cl::Catalog, ClashBattle>>(std::move(catalog));
}

}  // namespace battlecore::monitor
