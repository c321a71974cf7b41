#pragma once
/// The rule sets' `mcts` policies: one template that plays each decision by the generic search
/// of uct.hpp. A rule set gives its policy interface, its Battle and Action, and its search
/// Traits; it keeps only what is its own (the Traits, their Key, any decision it answers
/// without searching).
///
/// Beyond what UctSearch asks of them (see uct.hpp), the Traits offer:
///   Traits();                                          // default constructible, kept by the policy
///   void at_root(const Battle&, std::span<const Action> options);  // before each search
///   std::optional<std::size_t> answer(const Battle&, std::span<const Action> options);  // optional
/// `answer`, when the Traits have it, is asked first: an index it gives is played without a
/// search (the party answers its Block decisions this way).
///
/// The Traits stay in the rule set's source file, incomplete in its header: the members below
/// are defined here but instantiated only there, by an explicit instantiation
/// (`template class UctPolicy<...>;` after the Traits), which the header declares `extern`.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "battlecore/core/rng.hpp"
#include "battlecore/core/uct.hpp"

namespace battlecore {

namespace detail {
/// What a UctPolicy keeps on the heap (outside the class, so that the header, which declares
/// the instantiation `extern`, never needs the Traits complete).
template <class Battle, class Traits>
struct UctPolicyState {
  Traits traits;
  UctSearch<Battle, Traits> search;
};
}  // namespace detail

/// A PolicyBase (the rule set's `Policy`: reset(seed) and choose(battle, options)) that plays by
/// UctSearch over re-sampled copies. A single option is played without a search.
template <class PolicyBase, class Battle, class Action, class Traits>
class UctPolicy : public PolicyBase {
 public:
  explicit UctPolicy(UctOptions options = {});
  ~UctPolicy() override;
  void reset(std::uint64_t seed) override { rng_ = Rng::from_seed(seed); }
  std::size_t choose(const Battle& battle, std::span<const Action> options) override;
  const UctOptions& options() const { return options_; }

 protected:
  /// The rule set's part of the search (e.g. the party's block skill), to set up.
  Traits& traits();

 private:
  UctOptions options_;
  Rng rng_;
  std::unique_ptr<detail::UctPolicyState<Battle, Traits>> state_;
};

template <class PolicyBase, class Battle, class Action, class Traits>
UctPolicy<PolicyBase, Battle, Action, Traits>::UctPolicy(UctOptions options)
    : options_(options), state_(std::make_unique<detail::UctPolicyState<Battle, Traits>>()) {}

template <class PolicyBase, class Battle, class Action, class Traits>
UctPolicy<PolicyBase, Battle, Action, Traits>::~UctPolicy() = default;

template <class PolicyBase, class Battle, class Action, class Traits>
Traits& UctPolicy<PolicyBase, Battle, Action, Traits>::traits() {
  return state_->traits;
}

template <class PolicyBase, class Battle, class Action, class Traits>
std::size_t UctPolicy<PolicyBase, Battle, Action, Traits>::choose(const Battle& battle,
                                                                  std::span<const Action> options) {
  Traits& traits = state_->traits;
  if constexpr (requires(Traits & t, const Battle& b, std::span<const Action> o) { t.answer(b, o); })
    if (const std::optional<std::size_t> answered = traits.answer(battle, options)) return *answered;
  if (options.size() <= 1) return 0;
  traits.at_root(battle, options);
  return state_->search.choose(battle, options, traits, rng_, options_);
}

}  // namespace battlecore
