#pragma once
/// Batch simulation of every rule set: play many seeded battles with a policy and report what
/// they show. Thin layers over the generic runner (runner.hpp), one adapter per rule set.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "battlecore/clash/catalog.hpp"
#include "battlecore/clash/policies.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/deckbuilder/catalog.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/party/policies.hpp"
#include "battlecore/sim/encounter.hpp"
#include "battlecore/sim/report.hpp"
#include "battlecore/sim/runner.hpp"

namespace battlecore::sim {

/// A policy of the user's own, for simulate_*: `policy`, `versus_policy` (and a clash seat's
/// policy) may give its `name` as they give "random". `make` gives a new policy each time it is
/// called: once per side and thread, from the run's threads, possibly at once. Each battle then
/// starts with `reset(seed)`; a policy that draws only from that seed keeps the run the same for
/// any thread count and shard, as the built-in ones do.
template <class Policy>
struct PolicyMaker {
  std::string name;
  std::function<std::unique_ptr<Policy>()> make;
};

/// What to simulate. `policy_options` (the mcts settings) go to every rule set's mcts policy;
/// `count_enemy_damage` is the deckbuilder's.
struct SimConfig {
  std::string encounter;  ///< empty: the pack's default encounter
  std::uint64_t battles = 1000;
  std::uint64_t seed = 1;
  std::string policy = "random";
  std::string versus_policy{};  ///< non-empty: paired A/B against this policy on the same seeds
  unsigned threads = 1;
  std::uint32_t shard_index = 1;  ///< run only shard shard_index of shard_count
  std::uint32_t shard_count = 1;
  UctOptions policy_options{};
  /// The mcts settings were chosen, not left at their defaults: a clash run in which, once the
  /// seats' own policies are applied, no seat plays mcts refuses them (they would be ignored).
  bool policy_options_given = false;
  /// Count the damage each enemy deals. It needs the battle's events, which are otherwise never
  /// built; off, the enemy table keeps its battle counts and its damage columns stay 0.
  bool count_enemy_damage = true;
  /// Called about ten times a second while the run goes on (see RunOptions::progress).
  std::function<void(std::uint64_t done, std::uint64_t total, double elapsed_s)> progress{};
  /// A scenario document every battle starts from, with the battle's own seed, or null
  /// (docs/determinism.md#scenarios). When it names an encounter, `encounter` must be empty or
  /// the same one (the run is refused otherwise).
  nlohmann::json scenario{};
  /// Called after each battle (see RunOptions::after_battle): `sim --record` writes replays.
  /// A replay writer for a run with `deck` takes the deck too (replay_writer's `deck`), so that
  /// its replays start from it.
  AfterBattle after_battle{};
  /// Called once before the first battle, once the run has passed its checks (see
  /// RunOptions::before_run): `sim --record` makes its directory.
  std::function<Result<void>()> before_run{};
  /// Deckbuilder: the master deck side A's battles start with, card ids in order (empty: the
  /// encounter's player deck). Not with a scenario, which sets the piles itself.
  std::vector<std::string> deck{};
  /// Deckbuilder: when not empty, a paired A/B of two decks: side B's battles start with this
  /// deck and play `versus_policy`, or `policy` when that is empty.
  std::vector<std::string> versus_deck{};
  /// The user's own policies, beside the rule set's built-in ones, one list per rule set (the
  /// others' are not read). A name must be a valid id (content::valid_id), given once, and not
  /// a built-in policy's; `make` must be set.
  std::vector<PolicyMaker<deckbuilder::Policy>> deckbuilder_policies{};
  std::vector<PolicyMaker<clash::Policy>> clash_policies{};
  std::vector<PolicyMaker<party::Policy>> party_policies{};
};

/// The card ids of a deck written "ID[*N],ID[*N],...", in order, N copies of each (1 to
/// deckbuilder::kMaxCards, 1 when left out; spaces around an item are dropped):
/// "strike*5,defend*4,bash". An error says what is
/// wrong: an empty id, a count that is not a whole number in range, more cards than a battle holds.
Result<std::vector<std::string>> parse_deck(std::string_view text);
/// The shortest text parse_deck reads back as `deck`: each run of one id as ID*N (ID alone for one).
std::string deck_text(const std::vector<std::string>& deck);
/// The card definitions of `deck` (card ids) in `catalog`: an error names every id the pack does
/// not have, `which` saying what the deck is ("deck", "versus deck"...).
Result<std::vector<deckbuilder::CardId>> deck_cards(const deckbuilder::Catalog& catalog,
                                                    const std::vector<std::string>& deck,
                                                    std::string_view which);

/// Plays the battles of `config`: battle i uses battle_seed(config.seed, i), whatever the thread
/// count or the shard. With `versus_catalog`, a paired A/B of two content packs: side B plays
/// the same encounter (by id) from that pack, whose cards and enemies are matched to this one's
/// by id (run_simulation); its deck (`versus_deck`, else `deck`) is read in that pack.
Result<SimReport> simulate_deckbuilder(
    const std::shared_ptr<const deckbuilder::Catalog>& catalog, const SimConfig& config,
    const std::shared_ptr<const deckbuilder::Catalog>& versus_catalog = nullptr);

/// Clash: seat k plays `seat_policies[k]` when that is given and not empty, else `config.policy`.
/// Seat 0's policy is the run's policy A (the report's `policy`), replaced by
/// `config.versus_policy` in the paired run, and seat 0's results are the report's wins and win
/// rate. Every seat's wins and mean place are reported. `versus_catalog`: a paired A/B of two
/// content packs, as for simulate_deckbuilder.
Result<SimReport> simulate_clash(const std::shared_ptr<const clash::Catalog>& catalog,
                                 const SimConfig& config, const std::vector<std::string>& seat_policies = {},
                                 const std::shared_ptr<const clash::Catalog>& versus_catalog = nullptr);

/// Party: the policy plays the party (its members, companion and blocks, at the `block` rates);
/// the enemies follow their behaviours. Defeats, flights and the party's HP left are counted.
/// `versus_catalog`: a paired A/B of two content packs, as for simulate_deckbuilder.
Result<SimReport> simulate_party(const std::shared_ptr<const party::Catalog>& catalog,
                                 const SimConfig& config, party::BlockSkill block = {},
                                 const std::shared_ptr<const party::Catalog>& versus_catalog = nullptr);

}  // namespace battlecore::sim
