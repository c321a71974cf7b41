#pragma once
/// Replays: the inputs of one battle and the hashes it went through, as a JSON file, and the
/// generic code that records and checks them for any rule set (docs/determinism.md).
///
/// Recording and checking are templates over a rule-set adapter `R` (see
/// include/battlecore/sim/deckbuilder_rules.hpp for the deckbuilder's), which names the rule
/// set's Catalog, Battle and Action and says how to start a battle, hash it and read and write
/// its actions.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/diagnostics.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/content/scenario_io.hpp"
#include "battlecore/core/decision.hpp"
#include "battlecore/core/invariant.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/version.hpp"

namespace battlecore::sim {

inline constexpr std::string_view kReplayFormat = "battlecore-replay";
/// Version of the replay file format; bump it when a field changes meaning.
inline constexpr std::uint32_t kReplayFormatVersion = 1;

/// Why a start with both a deck and a scenario is refused (a replay, a run, a start).
inline constexpr std::string_view kDeckWithScenario =
    "a deck does not go with a scenario, which sets the piles itself";

/// Where a battle starts: an encounter and a seed, optionally with scenario overrides.
struct BattleStart {
  std::string encounter;
  std::uint64_t seed = 0;
  /// A scenario document (docs/determinism.md#scenarios), or null for a plain start.
  nlohmann::json scenario;
  /// The master deck, card ids in order (one per card), for rule sets with decks (the
  /// deckbuilder); empty: the encounter's own deck. Not with a scenario, which sets the piles.
  /// (Its initializer lets a start be written with the first three fields only.)
  std::vector<std::string> deck = {};
};

/// A replay's actions, in order, each in its rule set's JSON form. They are kept as one text of
/// their compact dumps (nlohmann::json::dump()) rather than as JSON values, which take about ten
/// times the bytes: a long battle's replay holds hundreds of thousands of actions.
class ReplayActions {
 public:
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  /// Action `i` as compact JSON text.
  std::string_view text(std::size_t i) const;
  /// Action `i`, parsed from its text. A const copy, so that changing it does not compile as if
  /// it changed the list: set() does.
  const nlohmann::json operator[](std::size_t i) const;
  void push_back(const nlohmann::json& action);
  /// Replaces action `i`.
  void set(std::size_t i, const nlohmann::json& action);
  bool operator==(const ReplayActions&) const = default;

  /// Goes through the actions in order, each parsed as operator[] parses it.
  class Iterator {
   public:
    using value_type = nlohmann::json;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(const ReplayActions* actions, std::size_t index) : actions_(actions), index_(index) {}
    const nlohmann::json operator*() const { return (*actions_)[index_]; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const Iterator&) const = default;

   private:
    const ReplayActions* actions_ = nullptr;
    std::size_t index_ = 0;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  std::string text_;               ///< the actions' texts, one after another
  std::vector<std::size_t> ends_;  ///< where each action's text ends in text_
};

/// One replay file, in memory.
struct Replay {
  std::uint32_t format_version = kReplayFormatVersion;
  std::string engine_version;
  std::uint32_t rng_version = kRngVersion;
  std::string rules;
  std::uint64_t content_hash = 0;
  BattleStart start;
  std::uint64_t start_state_hash = 0;       ///< state_hash() once started, before any action
  ReplayActions actions;                    ///< the actions submitted, in order (JSON forms)
  std::vector<std::uint64_t> state_hashes;  ///< state_hash() after each action
  std::uint64_t final_state_hash = 0;       ///< state_hash() at the end of the record
  std::optional<std::string> engine_error;  ///< the InvariantError the last action raised
  /// The InvariantError the policy raised while it chose after the last action (sim::ChoiceError):
  /// every action replays, and the error lies in the choice that came next.
  std::optional<std::string> policy_error;
};

/// Reads the JSON form of one action (a rule set's action_from_json): why it is not an action,
/// or nullopt when it is one.
using ActionCheck = std::function<std::optional<std::string>(const nlohmann::json&)>;

/// The ActionCheck of rule set R.
template <class R>
ActionCheck action_check() {
  return [](const nlohmann::json& action) -> std::optional<std::string> {
    auto read = R::action_from_json(action);
    if (read) return std::nullopt;
    return read.error().message;
  };
}

/// A replay and the document it was read from, which places later problems in its file. Read by
/// read_replay_file or read_replay_text, the document keeps the file's text but not its long
/// arrays (actions, state_hashes), which are empty in its root: the replay holds them.
struct ReplayFile {
  content::JsonDocument document;
  Replay replay;
};

/// A rule set a replay file may name in `rules`, and how its actions are read.
struct ReplayRuleSet {
  std::string_view name;
  ActionCheck check_action;
};

/// The ReplayRuleSet of rule set R.
template <class R>
ReplayRuleSet replay_rule_set() {
  return {R::kName, action_check<R>()};
}

/// The replay as its JSON document, keys in the order of the format's description.
nlohmann::ordered_json replay_to_json(const Replay& replay);
/// Reads a replay document strictly: every problem is listed with its position and pointer,
/// each action's too when `check_action` is given, and a `rules` that is none of `rule_sets`
/// when they are given (without them any string is read).
Result<Replay, content::Diagnostics> replay_from_document(const content::JsonDocument& doc,
                                                          const ActionCheck& check_action = {},
                                                          std::span<const std::string_view> rule_sets = {});
/// Reads replay text (`file` names it in diagnostics) as replay_from_document reads its
/// document, in one pass that keeps the long arrays out of the document (ReplayFile): the
/// problems of parsing (its syntax, a repeated key) come first, then the reading's.
Result<ReplayFile, content::Diagnostics> read_replay_text(std::string file, std::string text,
                                                          const ActionCheck& check_action = {});
/// read_replay_text for a file whose `rules` must name one of `rule_sets`, its actions read by
/// that one's check. When it names none, every problem that reading without a rule set finds:
/// `rules`' own at `/rules`, then the header's (format, versions, seed, hashes), the start's and
/// the shape of the actions, each at its position.
Result<ReplayFile, content::Diagnostics> read_replay_text(std::string file, std::string text,
                                                          std::span<const ReplayRuleSet> rule_sets);
/// Reads a replay file as read_replay_text does; a path that is not a regular file, cannot be
/// read or is over content::kMaxJsonFileBytes is reported as parse_json_file reports it.
Result<ReplayFile, content::Diagnostics> read_replay_file(const std::filesystem::path& path,
                                                          const ActionCheck& check_action = {});
/// read_replay_file for a file whose `rules` must name one of `rule_sets` (read_replay_text):
/// `battlecore replay`'s one reading of the file, whatever its rule set.
Result<ReplayFile, content::Diagnostics> read_replay_file(const std::filesystem::path& path,
                                                          std::span<const ReplayRuleSet> rule_sets);
/// read_replay_file without the document.
Result<Replay, content::Diagnostics> read_replay(const std::filesystem::path& path,
                                                 const ActionCheck& check_action = {});
/// Writes a replay file (2-space indented JSON); an error names the file.
Result<void> write_replay(const std::filesystem::path& path, const Replay& replay);

/// What checking a replay found.
struct ReplayCheck {
  enum class Kind : std::uint8_t {
    Match,           ///< every hash matched: exit 0
    Diverged,        ///< an action was refused, a hash differs, or an engine error: exit 1
    Malformed,       ///< the file cannot be replayed as written: exit 2
    ContentMismatch  ///< the content given is not the content recorded: exit 2
  };
  Kind kind = Kind::Match;
  std::optional<std::size_t> action;  ///< the index of the first diverging action
  std::string message;
  /// 0, 1 or 2, as `battlecore replay` exits.
  int exit_code() const { return kind == Kind::Match ? 0 : kind == Kind::Diverged ? 1 : 2; }
};

namespace detail {
std::string action_text(const nlohmann::json& action);
ReplayCheck check_header(const Replay& replay, std::string_view rules, std::uint64_t content_hash);
/// The problems found in a replay's scenario (a document of its own), placed where the scenario
/// is in the replay file: pointers from the replay's root, positions in its text.
content::Diagnostics place_in_replay(const content::Diagnostics& scenario_problems, const ReplayFile& file);
/// Why a start's scenario does not start its encounter (it names another), or nullopt. A
/// scenario's own encounter is the one it starts, so the start's would be ignored.
std::optional<std::string> scenario_encounter_problem(const BattleStart& start);
}  // namespace detail

/// Every problem of how a replay starts, checked against `catalog` and placed in the replay file
/// (pointers from its root, positions in its text): an encounter the pack does not have
/// (`/encounter`), each card of the deck it does not have (`/deck/3`, for a rule set whose cards
/// have ids), a deck the rule set does not deal (`/deck`: too many cards, or a rule set without
/// decks), and every problem of the scenario (`/scenario/...`, from R::start_scenario with the
/// replay's seed). Empty when the battle starts, and when the replay's header does not fit
/// `catalog` (check_replay reports that; the problems would be those of other content).
template <class R>
content::Diagnostics replay_start_problems(const std::shared_ptr<const typename R::Catalog>& catalog,
                                           const ReplayFile& file) {
  const BattleStart& start = file.replay.start;
  if (detail::check_header(file.replay, R::kName, R::content_hash(*catalog)).kind != ReplayCheck::Kind::Match)
    return {};
  const content::JsonDocument& doc = file.document;
  const std::string& pack = catalog->pack.id;
  content::Diagnostics problems;
  const bool known_encounter = catalog->find_encounter(start.encounter).has_value();
  if (!known_encounter)
    problems.add(
        doc.diagnostic("/encounter", fmt::format("no encounter '{}' in pack '{}'", start.encounter, pack)));
  bool known_cards = true;
  if constexpr (requires(const typename R::Catalog& c) { c.find_card(std::string_view{}); }) {
    for (std::size_t i = 0; i < start.deck.size(); ++i)
      if (!catalog->find_card(start.deck[i])) {
        problems.add(doc.diagnostic(content::child_pointer("/deck", i),
                                    fmt::format("no card '{}' in pack '{}'", start.deck[i], pack)));
        known_cards = false;
      }
  }
  // The deck as a whole is the rule set's to judge, by dealing it. It does not depend on the
  // encounter: without the replay's, the pack's first stands in, so that both are reported.
  if (!start.deck.empty() && known_cards && (known_encounter || !catalog->encounters.empty())) {
    const BattleStart deal{
        known_encounter ? start.encounter : catalog->encounters.front().id, start.seed, {}, start.deck};
    if (auto dealt = R::start(catalog, deal); !dealt)
      problems.add(doc.diagnostic("/deck", dealt.error().message));
  }
  if (!start.scenario.is_null()) {
    // The scenario starts the replay's encounter: one that names another is refused.
    if (const auto other = detail::scenario_encounter_problem(start))
      problems.add(doc.diagnostic("/encounter", *other));
    const nlohmann::json named_scenario = content::scenario_naming(start.scenario, start.encounter);
    const content::JsonDocument scenario{doc.file, named_scenario.dump(), named_scenario};
    if (auto started = R::start_scenario(catalog, scenario, start.seed); !started) {
      const content::Diagnostics placed = detail::place_in_replay(started.error(), file);
      for (const content::Diagnostic& d : placed.items()) problems.add(d);
    }
  }
  return problems;
}

/// Plays `actions` from `start` on a fresh battle with history on, hashing after each one:
/// the replay of that battle. An action that is refused is an error (it was never played); an
/// InvariantError stops the record at that action and is kept in `engine_error`.
template <class R>
Result<Replay> record_replay(const std::shared_ptr<const typename R::Catalog>& catalog,
                             const BattleStart& start, std::span<const typename R::Action> actions) {
  Replay replay;
  replay.engine_version = std::string(engine_version());
  replay.rules = std::string(R::kName);
  replay.content_hash = R::content_hash(*catalog);
  replay.start = start;
  auto started = R::start(catalog, start);
  if (!started) return started.error();
  typename R::Battle& battle = started.value();
  replay.start_state_hash = battle.state_hash();
  for (const typename R::Action& action : actions) {
    replay.actions.push_back(R::action_to_json(battle, action));
    try {
      auto applied = battle.submit(action);
      if (!applied)
        return Error{"action " + std::to_string(replay.actions.size() - 1) +
                     " was refused: " + R::refusal_text(applied.error())};
    } catch (const InvariantError& e) {
      replay.engine_error = e.what();
      break;
    }
    replay.state_hashes.push_back(battle.state_hash());
  }
  replay.final_state_hash = battle.state_hash();
  return replay;
}

namespace detail {

/// The end of a replay whose policy raised an engine error while it chose after the last of its
/// `actions` (`policy_error`, `recorded`): each option of that decision is played on a copy of
/// `battle`, and the first that raises the recorded error again is named; else what is known.
/// Either way the battle has a failure to show: exit 1.
template <class R>
ReplayCheck check_policy_error(const typename R::Battle& battle, const std::string& recorded,
                               std::size_t actions) {
  const std::string where = fmt::format(
      "{}, where the policy raised an engine error while choosing ({})",
      actions == 0 ? std::string("at the first decision") : fmt::format("after action {}", actions - 1),
      recorded);
  if (battle.status() != Status::AwaitingDecision)
    return {ReplayCheck::Kind::Diverged, std::nullopt, where + ", the battle waits on no decision"};
  std::vector<typename R::Action> options;
  battle.legal_actions(options);
  std::optional<std::string> other;
  for (std::size_t k = 0; k < options.size(); ++k) {
    typename R::Battle copy = battle;
    try {
      (void)copy.submit(options[k]);
    } catch (const InvariantError& e) {
      const std::string option =
          fmt::format("option {} {}", k, action_text(R::action_to_json(battle, options[k])));
      if (recorded == e.what())
        return {ReplayCheck::Kind::Diverged, std::nullopt,
                where + ", " + option + " raises the recorded engine error again"};
      if (!other) other = option + " raises another: " + e.what();
    }
  }
  return {ReplayCheck::Kind::Diverged, std::nullopt,
          where + ", no option raises it at once (the policy met it deeper in its search)" +
              (other ? "; " + *other : "")};
}

}  // namespace detail

/// Replays `replay` against `catalog`: the first action whose refusal, hash or engine error
/// differs from the record is named. A replay with a `policy_error` ends at the choice that
/// raised it (detail::check_policy_error).
template <class R>
ReplayCheck check_replay(const std::shared_ptr<const typename R::Catalog>& catalog, const Replay& replay) {
  using Kind = ReplayCheck::Kind;
  if (ReplayCheck header = detail::check_header(replay, R::kName, R::content_hash(*catalog));
      header.kind != Kind::Match)
    return header;
  // A scenario starts its own encounter: the replay would be checked on another than it names.
  if (const auto other = detail::scenario_encounter_problem(replay.start))
    return {Kind::Malformed, std::nullopt, "/encounter: " + *other};
  std::optional<Result<typename R::Battle>> started;
  try {
    started.emplace(R::start(catalog, replay.start));
  } catch (const InvariantError& e) {
    return {Kind::Diverged, std::nullopt,
            std::string("the battle raises an engine error while starting: ") + e.what()};
  }
  if (!*started)
    return {Kind::Malformed, std::nullopt, "the battle does not start: " + started->error().message};
  typename R::Battle& battle = started->value();
  if (battle.state_hash() != replay.start_state_hash)
    return {Kind::Diverged, std::nullopt,
            "the battle diverges before the first action: start hash expected " +
                content::hash_to_hex(replay.start_state_hash) + ", got " +
                content::hash_to_hex(battle.state_hash())};
  for (std::size_t i = 0; i < replay.actions.size(); ++i) {
    const auto named = [&] { return fmt::format("action {} {}", i, replay.actions.text(i)); };
    auto action = R::action_from_json(replay.actions[i]);
    if (!action) return {Kind::Malformed, i, "/actions/" + std::to_string(i) + ": " + action.error().message};
    const bool last = i + 1 == replay.actions.size();
    try {
      auto applied = battle.submit(action.value());
      if (!applied) return {Kind::Diverged, i, named() + " is refused: " + R::refusal_text(applied.error())};
    } catch (const InvariantError& e) {
      if (last && replay.engine_error && *replay.engine_error == e.what())
        return {Kind::Diverged, i, named() + " raises the recorded engine error again: " + e.what()};
      return {Kind::Diverged, i, named() + " raises an engine error: " + e.what()};
    }
    if (last && replay.engine_error)
      return {Kind::Diverged, i, named() + " was recorded with an engine error, but none happens now"};
    if (battle.state_hash() != replay.state_hashes[i])
      return {Kind::Diverged, i,
              named() + " diverges: state hash expected " + content::hash_to_hex(replay.state_hashes[i]) +
                  ", got " + content::hash_to_hex(battle.state_hash())};
  }
  if (battle.state_hash() != replay.final_state_hash)
    return {Kind::Diverged, std::nullopt,
            "the final state hash differs: expected " + content::hash_to_hex(replay.final_state_hash) +
                ", got " + content::hash_to_hex(battle.state_hash())};
  if (replay.policy_error)
    return detail::check_policy_error<R>(battle, *replay.policy_error, replay.actions.size());
  return {Kind::Match, std::nullopt,
          "replay matches: " + std::to_string(replay.actions.size()) + " actions, final state hash " +
              content::hash_to_hex(replay.final_state_hash)};
}

}  // namespace battlecore::sim
