#include "battlecore/deckbuilder/policies.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "deckbuilder/mechanics.hpp"

namespace battlecore::deckbuilder {

namespace {

constexpr std::array<std::string_view, 3> kPolicyNames = {"random", "greedy", "mcts"};

std::int64_t enemy_hp(const BattleState& s) {
  std::int64_t hp = 0;
  for (const EnemyState& e : s.enemies) hp += std::max(0, e.unit.hp);
  return hp;
}

/// The greedy policy's score of a state: what the option just did, nothing of what follows.
double greedy_score(const Battle& b) {
  const BattleState& s = b.state();
  if (b.is_battle_over() || b.is_waiting_for_reward()) return b.won() ? 1000.0 + s.player.hp : -1000.0;
  return double(s.player.hp) + 0.5 * double(s.player.armor) - double(enemy_hp(s));
}

}  // namespace

void resample_hidden(Battle& battle, std::uint64_t seed) {
  BattleState& s = Battle::Access::of(battle).s;
  s.rng = RngStreams(seed);
  // The cards the player knows to be on top stay there; the cards under them, then those on top
  // whose order the player does not know (the Innate cards, which the rules put there in
  // shuffled order) among themselves, are shuffled, each from a canonical order, so that the
  // result does not depend on the real order at all. The cards put on top from the hand stay as
  // they lie.
  CardPile draw;
  for (CardRef c : s.draw_pile()) draw.push_back(c);
  const auto reshuffle = [&](CardRef* first, CardRef* last) {
    std::sort(first, last);
    s.rng[Stream::Shuffle].shuffle(first, last);
  };
  CardRef* const on_top = draw.end() - s.known_on_top();
  CardRef* const in_order = draw.end() - s.known_in_order_on_top();
  reshuffle(draw.begin(), on_top);
  reshuffle(on_top, in_order);
  s.piles.assign(Pile::Draw, draw);
}

// --- greedy -------------------------------------------------------------------------------

std::size_t GreedyPolicy::choose(const Battle& battle, std::span<const Action> options) {
  if (options.size() == 1) return 0;
  // One sample of the hidden chance (a card that draws) for every option, so they compare fairly.
  const std::uint64_t sample = rng_.next();
  std::size_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < options.size(); ++i) {
    double score = greedy_score(battle);  // ending the turn changes nothing yet
    if (options[i].kind != ActionKind::EndTurn) {
      Battle copy = battle;
      resample_hidden(copy, sample);
      if (!copy.submit(options[i]).ok()) continue;
      // Choices opened by the option are taken by their first option.
      while (copy.status() == Status::AwaitingDecision && copy.is_waiting_for_choice()) {
        copy.legal_actions(scratch_);
        if (!copy.submit(scratch_.front()).ok()) break;
      }
      score = greedy_score(copy);
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

// --- MCTS ---------------------------------------------------------------------------------

/// What the generic search needs of a deckbuilder battle: one player, rewards as in the notes
/// of policies.hpp.
struct MctsTraits : UctTraitsDefaults<Battle, deckbuilder::Action> {
  using Options = deckbuilder::Options;
  /// An option known by what it does rather than by which copy of a card it plays: the kind,
  /// the card's definition, the target, the option index and the card's cost now.
  struct Key {
    ActionKind kind = ActionKind::EndTurn;
    std::uint16_t card = 0;
    std::int8_t target = -1;
    std::uint8_t index = 0;
    std::int8_t cost = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  static constexpr std::size_t kMaxPlayers = 1;
  std::int64_t enemy_hp_at_root = 0;  ///< the enemies' max HP, the measure of a loss's progress

  void at_root(const Battle& b, std::span<const Action>) {
    enemy_hp_at_root = 0;
    for (const EnemyState& e : b.state().enemies) enemy_hp_at_root += std::max(0, e.unit.max_hp);
  }
  void resample(Battle& b, std::uint64_t seed) const { resample_hidden(b, seed); }
  bool over(const Battle& b) const {
    return b.status() != Status::AwaitingDecision || b.is_waiting_for_reward();
  }
  /// Equal cards share a node: a play is known by the card's definition, target and cost.
  Key key(const Battle& b, const Action& a) const {
    if (a.kind != ActionKind::PlayCard) return {a.kind, 0, a.target, a.index, 0};
    return {a.kind, b.state().cards[a.card].def, a.target, 0,
            static_cast<std::int8_t>(b.effective_cost(a.card))};
  }
  std::size_t player(const Battle&) const { return 0; }
  /// The search applies only options it has just listed on the same battle.
  void submit(Battle& b, const Action& a) const { b.submit_listed(a); }
  /// Uniform among the options other than ending the turn (the last one, when offered): a
  /// rollout plays its cards before it ends the turn.
  std::size_t rollout_pick(const Battle&, std::span<const Action> options, Rng& rng) const {
    std::size_t n = options.size();
    if (n > 1 && options.back().kind == ActionKind::EndTurn) --n;
    return n > 1 ? rng.below(static_cast<std::uint32_t>(n)) : 0;
  }
  void rewards(const Battle& b, std::array<double, kMaxPlayers>& out) const {
    const BattleState& s = b.state();
    if (b.won() || (b.is_waiting_for_reward() && s.player.hp > 0)) {
      const double max_hp = std::max(1, s.player.max_hp);
      out[0] = 0.5 + 0.5 * double(std::max(0, s.player.hp)) / max_hp;
    } else {
      out[0] = enemy_hp_at_root <= 0
                   ? 0.0
                   : 0.3 * double(enemy_hp_at_root - enemy_hp(s)) / double(enemy_hp_at_root);
    }
  }
};

// --- by name ------------------------------------------------------------------------------

std::span<const std::string_view> policy_names() { return kPolicyNames; }

Result<std::unique_ptr<Policy>> make_policy(std::string_view name, const UctOptions& options) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>());
  if (name == "greedy") return std::unique_ptr<Policy>(std::make_unique<GreedyPolicy>());
  if (name == "mcts") {
    if (auto checked = check_uct_options(options); !checked) return checked.error();
    return std::unique_ptr<Policy>(std::make_unique<MctsPolicy>(options));
  }
  return Error{"unknown policy '" + std::string(name) + "'; known policies: random, greedy, mcts"};
}

}  // namespace battlecore::deckbuilder

namespace battlecore {
template class UctPolicy<deckbuilder::Policy, deckbuilder::Battle, deckbuilder::Action,
                         deckbuilder::MctsTraits>;
}  // namespace battlecore
