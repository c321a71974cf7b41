#pragma once
// The deckbuilder's adapter for the generic runner (battlecore/sim/runner.hpp): how to play one
// deckbuilder battle with a policy and what to write down about it.

#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/deckbuilder/battle.hpp"
#include "battlecore/deckbuilder/policies.hpp"
#include "battlecore/deckbuilder/scenario.hpp"
#include "battlecore/sim/report.hpp"
#include "battlecore/sim/simulate.hpp"

namespace battlecore::sim {

class DeckbuilderAdapter {
 public:
  /// `scenario`: a scenario document every battle starts from (with its own seed), or null, and
  /// `scenario_start` the same scenario read (each battle reads the document when it is null).
  /// `deck`: the master deck every battle starts with (empty: the encounter's player deck).
  /// `own_policies`: the user's own policies, by name, beside the built-in ones.
  DeckbuilderAdapter(std::shared_ptr<const deckbuilder::Catalog> catalog, deckbuilder::EncounterId encounter,
                     UctOptions policy_options, bool count_enemy_damage, nlohmann::json scenario = nullptr,
                     std::optional<deckbuilder::ScenarioStart> scenario_start = std::nullopt,
                     std::vector<deckbuilder::CardId> deck = {},
                     std::vector<PolicyMaker<deckbuilder::Policy>> own_policies = {})
      : catalog_(std::move(catalog)),
        encounter_(encounter),
        policy_options_(policy_options),
        count_enemy_damage_(count_enemy_damage),
        scenario_(std::move(scenario)),
        scenario_start_(std::move(scenario_start)),
        deck_(std::move(deck)),
        own_policies_(std::move(own_policies)) {}

  /// Plays deckbuilder battles one after another on one thread.
  class Player {
   public:
    Player(std::shared_ptr<const deckbuilder::Catalog> catalog, deckbuilder::EncounterId encounter,
           std::unique_ptr<deckbuilder::Policy> policy, bool count_enemy_damage,
           const nlohmann::json& scenario, const std::optional<deckbuilder::ScenarioStart>& scenario_start,
           const std::vector<deckbuilder::CardId>& deck);
    Player(const Player&) = delete;
    Player& operator=(const Player&) = delete;

    void play(std::uint64_t battle_seed, BattleRecord& out);
    /// The actions of the last battle; when they were not kept, found by playing it again.
    nlohmann::json actions_json();
    void recover();
    /// Whether play keeps each battle's actions (on at first; the runner turns it off when
    /// nothing asks for the actions of a battle that went well).
    void keep_actions(bool on) { keep_actions_ = on; }

   private:
    /// Plays the battle started to its end: the policy's decisions, counted in `out` and per
    /// card (plays_of_, first_played_); returns how many card definitions were played.
    /// `kRandom`: the policy is random_; `kKeepActions`: keep_actions_.
    template <bool kRandom, bool kKeepActions>
    std::size_t decide(BattleRecord& out);

    std::shared_ptr<const deckbuilder::Catalog> catalog_;
    deckbuilder::EncounterId encounter_;
    bool count_enemy_damage_;         ///< write down each enemy's damage (Battle::damage_stats)
    const nlohmann::json& scenario_;  ///< the adapter's
    const std::optional<deckbuilder::ScenarioStart>& scenario_start_;  ///< the adapter's
    const std::vector<deckbuilder::CardId>& deck_;                     ///< the adapter's
    std::unique_ptr<deckbuilder::Policy> policy_;
    deckbuilder::RandomPolicy* random_ = nullptr;  ///< policy_, when it is the random policy
    deckbuilder::Battle battle_;
    deckbuilder::Options options_;
    std::vector<deckbuilder::Action> actions_;  ///< of the battle being played, when kept
    bool keep_actions_ = true;
    std::uint64_t last_seed_ = 0;                    ///< of the battle being played
    std::vector<std::uint32_t> plays_of_;            ///< per card definition, in the battle being played
    std::vector<deckbuilder::CardId> first_played_;  ///< the cards played, in order of first play
  };

  void describe(SimReport& header) const;
  Result<std::unique_ptr<Player>> make_player(std::string_view policy) const;

 private:
  std::shared_ptr<const deckbuilder::Catalog> catalog_;
  deckbuilder::EncounterId encounter_;
  UctOptions policy_options_;
  bool count_enemy_damage_;
  nlohmann::json scenario_;
  std::optional<deckbuilder::ScenarioStart> scenario_start_;
  std::vector<deckbuilder::CardId> deck_;
  std::vector<PolicyMaker<deckbuilder::Policy>> own_policies_;
};

}  // namespace battlecore::sim
