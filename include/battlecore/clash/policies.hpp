#pragma once
/// Policies: who picks among the legal options when no human does.
///
/// - `random`: the original's bot, uniformly among the legal options (a random rock of the two,
///   a random playable card).
/// - `greedy`: the rock and card that beat the most remaining opponents' likely elements, then
///   the higher value (greedy_card_score); deterministic.
/// - `mcts`: UCT over copies of the battle (battlecore/core/uct.hpp). Every iteration starts
///   from a copy re-sampled from the deciding seat's point of view (resample_hidden): the random
///   streams (dice, future cards), the order of its own pile and the other seats' hands are drawn
///   anew, so the search never reads another seat's hand or the future. The tree is keyed by actions (the
///   seat, the rock, the card by element and value) and is multi-player: each node's value is the reward of
///   the seat that chose it, and each seat picks what is best for itself. Rollouts play uniformly at random
///   to the end of the battle; a seat's reward is (n - place) / (n - 1) over n seats, 1 for first down to 0
///   for last, seats sharing a place taking the mean of the positions they share (two seats sharing first
///   place in four each get (4 - 1.5) / 3). The option visited most at the root is played.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "battlecore/clash/battle.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/core/uct.hpp"
#include "battlecore/core/uct_policy.hpp"

namespace battlecore::clash {

/// Picks one of the legal options. Implement it to plug your own player in.
class Policy {
 public:
  virtual ~Policy() = default;
  /// Called at the start of each battle with a seed derived from the battle's.
  virtual void reset(std::uint64_t seed) = 0;
  /// The index of the chosen option; `options` is never empty.
  virtual std::size_t choose(const Battle& battle, std::span<const Action> options) = 0;
};

/// The original's bot: a random rock of the two, a random playable card.
class RandomPolicy final : public Policy {
 public:
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle&, std::span<const Action> options) override { return pick(options.size()); }
  std::size_t pick(std::size_t n) { return n > 1 ? rng_.below(static_cast<std::uint32_t>(n)) : 0; }

 private:
  Rng rng_;
};

/// Prefers the rock and card that beat the most remaining opponents' likely elements, then the
/// higher value; deterministic (ties go to the lower option index).
class GreedyPolicy final : public Policy {
 public:
  void reset(std::uint64_t) override {}
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;
};

/// How much `card` is expected to win against the other remaining seats of `battle`, seen from
/// `seat`: a seat that has played counts with its card; one still to play with the elements of
/// the twelve rocks it can reach (a wildcard rock counting each element alike) and value 5.5.
double greedy_card_score(const Battle& battle, SeatRef seat, Card card);

/// Re-samples what `perspective` cannot know, for search on a copy (never on the battle being
/// played): every random stream is reseeded from `seed`, and every other seat's hand is dealt
/// anew. With a listed deck a seat's hand and pile are pooled, put in a canonical order,
/// shuffled (Stream::Shuffle) and dealt back from the pile to the same hand size; with random
/// cards each card of the hand is replaced by a fresh random card drawn as the dealer draws
/// (Stream::Setup). The perspective's own pile (a listed deck's cards still to draw) is
/// reshuffled the same way, its hand kept. Every seat's played card this round, health, rocks,
/// places, the die shown and the turn order are kept.
void resample_hidden(Battle& battle, SeatRef perspective, std::uint64_t seed);

/// Every seat's reward in [0, 1] for the search, into `out` (one per seat): (n - position) /
/// (n - 1) where a seat's position is its place, seats sharing a place taking the mean of the
/// positions they share. Seats still in (a battle not over) are ranked by health above the seats
/// out, equal health sharing.
void seat_rewards(const Battle& battle, std::span<double> out);

/// What the search needs of a clash battle (policies.cpp): the deciding seat's point of view,
/// the options keyed by what they do (the kind, the seat, and the rock or the card's element
/// and value), the seats' rewards.
struct MctsTraits;

/// UCT over re-sampled copies (see the notes at the top).
/// Its members are instantiated in policies.cpp (see the foot of this file).
using MctsPolicy = UctPolicy<Policy, Battle, Action, MctsTraits>;

/// The names make_policy knows, in order.
std::vector<std::string_view> policy_names();
/// The policy named `name` ("random", "greedy", "mcts"), or an error listing the known ones.
/// The mcts settings are checked (check_uct_options) only when `name` is "mcts".
Result<std::unique_ptr<Policy>> make_policy(std::string_view name, const UctOptions& options = {});

}  // namespace battlecore::clash

namespace battlecore {
extern template class UctPolicy<clash::Policy, clash::Battle, clash::Action, clash::MctsTraits>;
}  // namespace battlecore
