// The deckbuilder's monitor adapter: the state view and decision view of view.hpp, plus what
// the page's controls need to follow the seed's safe checks (the play check of each hand card).

#include "battlecore/monitor/deckbuilder_adapter.hpp"

#include <algorithm>
#include <vector>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/snapshot.hpp"
#include "battlecore/deckbuilder/view.hpp"
#include "battlecore/sim/deckbuilder_rules.hpp"
#include "catalog_adapter.hpp"

namespace battlecore::monitor {

namespace {

namespace db = battlecore::deckbuilder;

class DeckbuilderBattle final : public MonitorBattle {
 public:
  explicit DeckbuilderBattle(std::shared_ptr<const db::Catalog> catalog)
      : catalog_(catalog), battle_(std::move(catalog)) {}

  Result<void, Refused> start(std::string_view encounter, std::uint64_t seed) {
    start_ = {std::string(encounter), seed, nullptr};
    auto started = battle_.start_battle(encounter, seed);
    if (!started) return Refused{"unknown_encounter", started.error().message};
    return {};
  }

  nlohmann::json state() const override {
    nlohmann::json j = db::state_view(battle_);
    j["rules"] = "deckbuilder";
    j["won"] = battle_.is_battle_over() ? nlohmann::json(battle_.won()) : nlohmann::json(nullptr);
    if (battle_.phase() != db::Phase::None) {
      const db::Catalog& c = battle_.catalog();
      const auto& s = battle_.state();
      j["encounter_name"] = c.encounters[s.encounter].name;
      j["max_energy"] = c.encounters[s.encounter].rules.max_energy;
      for (auto& card : j["hand"]) {
        const auto ref = card["card"].get<db::CardRef>();
        const db::CardDef& def = c.cards[s.cards[ref].def];
        card["name"] = def.name;
        card["text"] = def.text;
        card["type"] = db::card_type_name(def.type);
        card["cost"] = battle_.effective_cost(ref);  // for an X-cost card, the energy it would take
        card["x_cost"] = def.x_cost();
      }
      for (auto& e : j["enemies"])
        if (e.contains("intent")) {
          const db::EnemyState& es = s.enemies[e["index"].get<std::size_t>()];
          e["intent"]["name"] = c.enemies[es.def].moves[es.intent].name;
        }
      if (j.contains("reward_options")) {
        nlohmann::json named = nlohmann::json::array();
        for (db::CardId r : s.reward_options)
          named.push_back({{"id", c.cards[r].id}, {"name", c.cards[r].name}, {"text", c.cards[r].text}});
        j["reward_options"] = named;
      }
    }
    return j;
  }

  nlohmann::json decision() const override {
    // Not decision_view's options: there the option number overwrites an action's own "index".
    const db::Decision d = battle_.decision();
    nlohmann::json options = nlohmann::json::array();
    for (std::size_t i = 0; i < d.options.size(); ++i)
      options.push_back({{"index", i},
                         {"action", db::describe_action(battle_, d.options[i])},
                         {"label", db::action_label(battle_, d.options[i])}});
    nlohmann::json j = {{"status", status_name(battle_.status())},
                        {"who", d.who.kind == Decider::Kind::Player ? "player" : "nobody"},
                        {"options", options}};
    // The seed's "Enable card buttons" check for every card in hand, with the reason when not.
    nlohmann::json cards = nlohmann::json::array();
    for (db::CardRef ref : battle_.state().hand()) {
      const db::PlayCheck check = battle_.can_play_card(ref);
      const bool offered = std::any_of(d.options.begin(), d.options.end(), [&](const db::Action& a) {
        return a.kind == db::ActionKind::PlayCard && a.card == ref;
      });
      std::string reason(db::play_check_name(check));
      if (check == db::PlayCheck::Ok && !offered)
        reason = battle_.is_waiting_for_choice() ? "a choice is waiting" : "not playable now";
      const db::CardDef* def = battle_.active_card(ref);
      cards.push_back({{"card", ref},
                       {"check", check == db::PlayCheck::Ok ? "ok" : "refused"},
                       {"playable", offered},
                       {"reason", offered ? "" : reason},
                       {"requires_target", def != nullptr && def->target == db::CardTarget::Enemy}});
    }
    j["cards"] = cards;
    j["waiting_for_choice"] = battle_.is_waiting_for_choice();
    j["waiting_for_reward"] = battle_.is_waiting_for_reward();
    return j;
  }

  Result<void, Refused> submit(const nlohmann::json& action) override {
    auto done = detail::submit_json(battle_, action, &db::action_from_json);
    if (!done) return done.error();
    return {};
  }

  std::size_t event_count() const override { return battle_.events().log().size(); }
  nlohmann::json event(std::size_t i) const override {
    return db::event_to_json(battle_.events().log()[i], battle_.catalog());
  }
  std::size_t transition_count() const override { return battle_.history().size(); }
  nlohmann::json transition(std::size_t i) const override {
    return detail::transition_json<db::Machine>(battle_.history()[i]);
  }
  nlohmann::json actions() const override { return detail::actions_json(battle_.actions()); }
  std::string state_hash() const override { return detail::hash_hex(battle_.state_hash()); }
  nlohmann::json engine_snapshot() const override { return db::snapshot(battle_); }
  nlohmann::ordered_json replay() const override {
    return detail::replay_json<sim::DeckbuilderRules>(catalog_, start_, battle_.actions());
  }

  std::optional<nlohmann::json> detail(std::string_view name) const override {
    const auto& s = battle_.state();
    std::vector<db::CardRef> pile;
    if (name == "draw_pile")
      pile.assign(s.draw_pile().begin(), s.draw_pile().end());
    else if (name == "discard_pile")
      pile.assign(s.discard_pile().begin(), s.discard_pile().end());
    else if (name == "exhaust_pile")
      pile.assign(s.exhaust_pile().begin(), s.exhaust_pile().end());
    else
      return std::nullopt;
    const auto card_json = [&](db::CardRef ref) {
      const db::CardDef& def = battle_.catalog().cards[s.cards[ref].def];
      return nlohmann::json{{"card", ref}, {"card_id", def.id}, {"name", def.name}};
    };
    nlohmann::json cards = nlohmann::json::array();
    if (name != "draw_pile") {
      for (db::CardRef ref : pile) cards.push_back(card_json(ref));
      return nlohmann::json{{"pile", name}, {"cards", cards}};
    }
    // The draw pile's order is hidden from the player: it is shown sorted by name (and cards of
    // one name by instance, so that their order tells nothing either), except that the cards the
    // player knows to be on top come first: the cards put there from the hand in their order (top
    // first), which the player knows, then the Innate cards the opening hand left there, sorted
    // among themselves: the player knows them to be there, but not in what order.
    const auto by_name = [](const nlohmann::json& a, const nlohmann::json& b) {
      const auto& an = a["name"].get_ref<const std::string&>();
      const auto& bn = b["name"].get_ref<const std::string&>();
      return an != bn ? an < bn : a["card"].get<db::CardRef>() < b["card"].get<db::CardRef>();
    };
    const std::size_t known = s.known_on_top();
    const std::size_t in_order = s.known_in_order_on_top();
    for (auto ref = pile.rbegin(); ref != pile.rend(); ++ref) cards.push_back(card_json(*ref));
    std::sort(cards.begin() + static_cast<std::ptrdiff_t>(in_order),
              cards.begin() + static_cast<std::ptrdiff_t>(known), by_name);
    std::sort(cards.begin() + static_cast<std::ptrdiff_t>(known), cards.end(), by_name);
    return nlohmann::json{
        {"pile", name}, {"cards", cards}, {"known_on_top", known}, {"known_in_order", in_order}};
  }

 private:
  std::shared_ptr<const db::Catalog> catalog_;
  sim::BattleStart start_;  ///< the encounter and seed, for the replay
  db::Battle battle_;
};

}  // namespace

std::shared_ptr<const RuleSetAdapter> make_deckbuilder_adapter(
    std::shared_ptr<const deckbuilder::Catalog> catalog) {
  return std::make_shared<detail::CatalogAdapter<db::Machine, db::Catalog, DeckbuilderBattle>>(
      std::move(catalog));
}

}  // namespace battlecore::monitor
