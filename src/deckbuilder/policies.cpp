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

/// Equal cards share a node: a play is known by the card's definition, target and cost.
MctsPolicy::Key key_of(const Battle& b, const Action& a) {
  if (a.kind != ActionKind::PlayCard) return {a.kind, 0, a.target, a.index, 0};
  return {a.kind, b.state().cards[a.card].def, a.target, 0,
          static_cast<std::int8_t>(b.effective_cost(a.card))};
}

}  // namespace

void resample_hidden(Battle& battle, std::uint64_t seed) {
  BattleState& s = Battle::Access::of(battle).s;
  s.rng = RngStreams(seed);
  // From a canonical order, so that the result does not depend on the real order at all.
  std::sort(s.draw_pile.begin(), s.draw_pile.end());
  s.rng[Stream::Shuffle].shuffle(s.draw_pile.span());
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

double MctsPolicy::reward(const Battle& b) const {
  const BattleState& s = b.state();
  if (b.won() || (b.is_waiting_for_reward() && s.player.hp > 0)) {
    const double max_hp = std::max(1, s.player.max_hp);
    return 0.5 + 0.5 * double(std::max(0, s.player.hp)) / max_hp;
  }
  if (enemy_hp_at_root_ <= 0) return 0.0;
  return 0.3 * double(enemy_hp_at_root_ - enemy_hp(s)) / double(enemy_hp_at_root_);
}

double MctsPolicy::rollout(Battle& b) {
  while (b.status() == Status::AwaitingDecision && !b.is_waiting_for_reward()) {
    b.legal_actions(legal_);
    // Uniform among the options other than ending the turn (the last one, when offered): a
    // rollout plays its cards before it ends the turn.
    std::size_t n = legal_.size();
    if (n > 1 && legal_.back().kind == ActionKind::EndTurn) --n;
    const std::size_t pick = n > 1 ? rng_.below(static_cast<std::uint32_t>(n)) : 0;
    BATTLECORE_ENSURE(b.submit(legal_[pick]).ok(), "a legal option was refused in a rollout{}", "");
  }
  return reward(b);
}

std::size_t MctsPolicy::choose(const Battle& battle, std::span<const Action> options) {
  if (options.size() == 1) return 0;
  nodes_.clear();
  nodes_.push_back(Node{});
  enemy_hp_at_root_ = 0;
  for (const EnemyState& e : battle.state().enemies) enemy_hp_at_root_ += std::max(0, e.unit.max_hp);
  const double c = options_.mcts_exploration;

  for (std::uint32_t it = 0; it < options_.mcts_iterations; ++it) {
    Battle b = battle;
    resample_hidden(b, rng_.next());
    path_.clear();
    path_.push_back(0);
    std::uint32_t node = 0;
    // Selection and expansion.
    while (b.status() == Status::AwaitingDecision && !b.is_waiting_for_reward()) {
      b.legal_actions(legal_);
      keys_.clear();
      for (const Action& a : legal_) keys_.push_back(key_of(b, a));
      legal_children_.clear();
      std::size_t untried = legal_.size();
      std::uint32_t untried_count = 0;
      for (std::size_t i = 0; i < legal_.size(); ++i) {
        bool duplicate = false;
        for (std::size_t j = 0; j < i && !duplicate; ++j) duplicate = keys_[j] == keys_[i];
        if (duplicate) continue;
        std::uint32_t child = nodes_[node].first_child;
        while (child != 0 && !(nodes_[child].key == keys_[i])) child = nodes_[child].next_sibling;
        if (child == 0) {
          // A uniform choice among the untried options (reservoir sampling).
          ++untried_count;
          if (untried_count == 1 || rng_.below(untried_count) == 0) untried = i;
        } else {
          legal_children_.push_back(child);
        }
      }
      if (untried < legal_.size()) {
        Node fresh;
        fresh.key = keys_[untried];
        fresh.next_sibling = nodes_[node].first_child;
        fresh.available = 1;
        nodes_.push_back(fresh);
        const auto child = static_cast<std::uint32_t>(nodes_.size() - 1);
        nodes_[node].first_child = child;
        for (std::uint32_t other : legal_children_) ++nodes_[other].available;
        BATTLECORE_ENSURE(b.submit(legal_[untried]).ok(), "a legal option was refused in the search{}", "");
        path_.push_back(child);
        break;
      }
      std::uint32_t best = legal_children_.front();
      double best_ucb = -std::numeric_limits<double>::infinity();
      for (std::uint32_t child : legal_children_) {
        Node& n = nodes_[child];
        ++n.available;
        const double ucb = n.value / n.visits + c * std::sqrt(std::log(double(n.available)) / n.visits);
        if (ucb > best_ucb) {
          best_ucb = ucb;
          best = child;
        }
      }
      std::size_t chosen = 0;
      while (!(keys_[chosen] == nodes_[best].key)) ++chosen;  // the child came from this list
      BATTLECORE_ENSURE(b.submit(legal_[chosen]).ok(), "a legal option was refused in the search{}", "");
      path_.push_back(best);
      node = best;
    }
    const double value = rollout(b);
    for (std::uint32_t n : path_) {
      ++nodes_[n].visits;
      nodes_[n].value += value;
    }
  }

  // The most visited option at the root; its key names an option of the real battle.
  std::uint32_t best = 0;
  for (std::uint32_t child = nodes_[0].first_child; child != 0; child = nodes_[child].next_sibling)
    if (best == 0 || nodes_[child].visits > nodes_[best].visits ||
        (nodes_[child].visits == nodes_[best].visits && nodes_[child].value > nodes_[best].value))
      best = child;
  if (best == 0) return 0;
  for (std::size_t i = 0; i < options.size(); ++i)
    if (key_of(battle, options[i]) == nodes_[best].key) return i;
  return 0;
}

// --- by name ------------------------------------------------------------------------------

std::span<const std::string_view> policy_names() { return kPolicyNames; }

Result<std::unique_ptr<Policy>> make_policy(std::string_view name, const PolicyOptions& options) {
  if (name == "random") return std::unique_ptr<Policy>(std::make_unique<RandomPolicy>());
  if (name == "greedy") return std::unique_ptr<Policy>(std::make_unique<GreedyPolicy>());
  if (name == "mcts") {
    if (options.mcts_iterations == 0) return Error{"mcts needs at least one iteration per decision"};
    if (!(options.mcts_exploration >= 0)) return Error{"the mcts exploration constant must be 0 or more"};
    return std::unique_ptr<Policy>(std::make_unique<MctsPolicy>(options));
  }
  return Error{"unknown policy '" + std::string(name) + "'; known policies: random, greedy, mcts"};
}

}  // namespace battlecore::deckbuilder
