#include "battlecore/sim/replay.hpp"

#include <array>
#include <fstream>
#include <functional>
#include <limits>
#include <utility>

#include <fmt/format.h>

namespace battlecore::sim {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

std::string_view engine_version() { return BATTLECORE_VERSION; }

std::string_view ReplayActions::text(std::size_t i) const {
  const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
  return std::string_view(text_).substr(begin, ends_[i] - begin);
}

const json ReplayActions::operator[](std::size_t i) const { return json::parse(text(i)); }

void ReplayActions::push_back(const json& action) {
  text_ += action.dump();
  ends_.push_back(text_.size());
}

void ReplayActions::set(std::size_t i, const json& action) {
  const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
  const std::string replacement = action.dump();
  text_.replace(begin, ends_[i] - begin, replacement);
  const std::size_t old_end = ends_[i];
  for (std::size_t k = i; k < ends_.size(); ++k) ends_[k] = ends_[k] - old_end + begin + replacement.size();
}

nlohmann::ordered_json replay_to_json(const Replay& r) {
  using ojson = nlohmann::ordered_json;
  ojson actions = ojson::array();
  for (std::size_t i = 0; i < r.actions.size(); ++i) actions.push_back(ojson::parse(r.actions.text(i)));
  ojson hashes = ojson::array();
  for (std::uint64_t h : r.state_hashes) hashes.push_back(content::hash_to_hex(h));
  ojson j = {{"format", kReplayFormat},
             {"format_version", r.format_version},
             {"engine_version", r.engine_version},
             {"rng_version", r.rng_version},
             {"rules", r.rules},
             {"content_hash", content::hash_to_hex(r.content_hash)},
             {"seed", r.start.seed},
             {"encounter", r.start.encounter}};
  if (!r.start.scenario.is_null()) j["scenario"] = ojson::parse(r.start.scenario.dump());
  if (!r.start.deck.empty()) j["deck"] = r.start.deck;
  j["start_state_hash"] = content::hash_to_hex(r.start_state_hash);
  j["actions"] = std::move(actions);
  j["state_hashes"] = std::move(hashes);
  j["final_state_hash"] = content::hash_to_hex(r.final_state_hash);
  if (r.engine_error) j["engine_error"] = *r.engine_error;
  if (r.policy_error) j["policy_error"] = *r.policy_error;
  return j;
}

namespace {

/// How the format writes a hash (content::hash_to_hex), the one form it reads.
constexpr std::string_view kHashForm = "a hash of 16 lower-case hex digits";

/// Why a replay of another rng_version cannot be played: its numbers are other numbers.
std::string rng_version_problem(std::int64_t version) {
  return fmt::format(
      "the replay was made with rng_version {}; this engine has rng_version {}, whose numbers differ",
      version, kRngVersion);
}

/// A card id as a deck names it: a content id, or an upgraded card's, the id with '+' after it
/// (`brace+`), which `sim --deck` and `start_battle`'s master deck take as well.
bool valid_card_id(std::string_view id) {
  if (!id.empty() && id.back() == '+') id.remove_suffix(1);
  return content::valid_id(id);
}

/// A value given where a string was expected, for messages: the string quoted, or its type.
std::string given_string(const json& value) {
  if (!value.is_string()) return content::describe_json_type(value);
  const auto& text = value.get_ref<const std::string&>();
  return text.empty() ? std::string("an empty string") : "'" + text + "'";
}

/// The hash `value` holds, or why it holds none (a message).
Result<std::uint64_t> hash_in(const json& value) {
  if (value.is_string())
    if (const auto h = content::hash_from_hex(value.get_ref<const std::string&>())) return *h;
  return Error{fmt::format("expected {}, got {}", kHashForm, given_string(value))};
}

std::optional<std::uint64_t> read_hash(ObjectReader& r, std::string_view key) {
  const json* value = r.optional_value(key);
  if (!r.valid()) return std::nullopt;
  if (value == nullptr) {
    r.error(fmt::format("missing required key '{}' ({})", key, kHashForm));
    return std::nullopt;
  }
  auto h = hash_in(*value);
  if (!h) {
    r.error_at(key, h.error().message);
    return std::nullopt;
  }
  return h.value();
}

/// A replay's long arrays, `actions` and `state_hashes`, read element by element, as the text is
/// parsed or from a document: the actions as text, the hashes as numbers, and the problems of
/// the elements that are not what the format has, for the reading to report in its order.
class ReplayArrays {
 public:
  /// The arrays of a document, as parsing would have handed them over.
  static ReplayArrays of(const json& root) {
    ReplayArrays arrays;
    if (!root.is_object()) return arrays;
    if (const auto actions = root.find("actions"); actions != root.end() && actions->is_array())
      for (const json& a : *actions) arrays.add_action(a);
    if (const auto hashes = root.find("state_hashes"); hashes != root.end() && hashes->is_array())
      for (const json& h : *hashes) arrays.add_state_hash(h);
    return arrays;
  }

  /// How parse_json_text hands the arrays over to `this`.
  std::array<content::StreamedArray, 2> streamed() {
    const auto restart_actions = [this] {
      actions_ = {};
      not_objects_.clear();
    };
    const auto restart_state_hashes = [this] {
      state_hashes_.clear();
      bad_hashes_.clear();
    };
    return {content::StreamedArray{"actions", restart_actions, [this](json&& a) { add_action(a); }},
            content::StreamedArray{"state_hashes", restart_state_hashes,
                                   [this](json&& h) { add_state_hash(h); }}};
  }

  /// The actions, each checked by `check` when given (their shape otherwise), every problem
  /// added to `diags` at its position in `doc`.
  ReplayActions take_actions(const content::JsonDocument& doc, const ActionCheck* check, Diagnostics& diags) {
    auto not_object = not_objects_.begin();
    for (std::size_t i = 0; i < actions_.size(); ++i) {
      std::optional<std::string> problem;
      if (not_object != not_objects_.end() && not_object->first == i)
        problem = "expected an action object, got " + (not_object++)->second;
      else if (check != nullptr && *check)
        problem = (*check)(actions_[i]);
      if (problem) diags.add(doc.diagnostic(content::child_pointer("/actions", i), std::move(*problem)));
    }
    return std::move(actions_);
  }

  /// The state hashes (0 for one that is none), every problem added to `diags`.
  std::vector<std::uint64_t> take_state_hashes(const content::JsonDocument& doc, Diagnostics& diags) {
    for (auto& [i, problem] : bad_hashes_)
      diags.add(doc.diagnostic(content::child_pointer("/state_hashes", i), std::move(problem)));
    return std::move(state_hashes_);
  }

 private:
  void add_action(const json& action) {
    if (!action.is_object()) not_objects_.emplace_back(actions_.size(), content::describe_json_type(action));
    actions_.push_back(action);
  }
  void add_state_hash(const json& value) {
    auto h = hash_in(value);
    if (!h) bad_hashes_.emplace_back(state_hashes_.size(), h.error().message);
    state_hashes_.push_back(h ? h.value() : 0);
  }

  ReplayActions actions_;
  std::vector<std::pair<std::size_t, std::string>> not_objects_;  ///< index, the type given
  std::vector<std::uint64_t> state_hashes_;
  std::vector<std::pair<std::size_t, std::string>> bad_hashes_;  ///< index, the problem
};

/// The check of the actions of a replay of rule set `rules`: null for none.
using ActionCheckOf = std::function<const ActionCheck*(std::string_view rules)>;

/// Reads the replay in `doc`, whose long arrays are `arrays` (in the document too, or left empty
/// there by parsing), every problem in the order of the format's keys.
Result<Replay, Diagnostics> read_replay_document(const JsonDocument& doc, ReplayArrays arrays,
                                                 std::span<const std::string_view> rule_sets,
                                                 const ActionCheckOf& check_of) {
  Diagnostics diags;
  Replay replay;
  ObjectReader r(doc, doc.root, "", diags);
  if (!r.valid()) return diags;
  if (const auto format = r.required_string("format"); format && *format != kReplayFormat)
    r.error_at("format", fmt::format("expected \"{}\", got \"{}\"", kReplayFormat, *format));
  if (const auto v = r.required_int("format_version", 0, 1'000'000)) {
    replay.format_version = static_cast<std::uint32_t>(*v);
    if (*v != kReplayFormatVersion)
      r.error_at("format_version",
                 fmt::format("replay format version {} is not supported; this engine reads version {}", *v,
                             kReplayFormatVersion));
  }
  replay.engine_version = r.required_string("engine_version").value_or("");
  if (const auto v = r.required_int("rng_version", 0, 1'000'000)) {
    replay.rng_version = static_cast<std::uint32_t>(*v);
    if (*v != kRngVersion) r.error_at("rng_version", rng_version_problem(*v));
  }
  if (rule_sets.empty())
    replay.rules = r.required_string("rules").value_or("");
  else if (const auto rules = r.required_enum("rules", rule_sets))
    replay.rules = std::string(rule_sets[*rules]);
  // A reading by rule set that names none well reads the actions for their shape alone.
  const ActionCheck* check = check_of(replay.rules);
  replay.content_hash = read_hash(r, "content_hash").value_or(0);
  if (!r.has("seed"))
    r.error("missing required key 'seed' (an integer in [0, 2^64))");
  else if (const auto seed = r.optional_seed("seed"))
    replay.start.seed = *seed;
  replay.start.encounter = r.required_string("encounter").value_or("");
  if (const json* s = r.optional_object("scenario")) replay.start.scenario = *s;
  if (const json* deck = r.optional_array("deck")) {
    for (std::size_t i = 0; i < deck->size(); ++i) {
      const json& card = (*deck)[i];
      if (card.is_string() && valid_card_id(card.get_ref<const std::string&>()))
        replay.start.deck.push_back(card.get<std::string>());
      else
        diags.add(
            doc.diagnostic(content::child_pointer("/deck", i),
                           "expected a card id: 1 to 64 characters a-z, 0-9, '_' or '-' (then '+' for an "
                           "upgraded card), got " +
                               given_string(card)));
    }
    if (deck->empty())
      r.error_at("deck", "expected at least one card (leave the key out for the encounter's deck)");
    if (!replay.start.scenario.is_null()) r.error_at("deck", std::string(kDeckWithScenario));
  }
  replay.start_state_hash = read_hash(r, "start_state_hash").value_or(0);
  if (r.required_array("actions")) replay.actions = arrays.take_actions(doc, check, diags);
  if (r.required_array("state_hashes")) replay.state_hashes = arrays.take_state_hashes(doc, diags);
  replay.final_state_hash = read_hash(r, "final_state_hash").value_or(0);
  replay.engine_error = r.optional_string("engine_error");
  replay.policy_error = r.optional_string("policy_error");
  r.finish();
  if (diags.empty() && replay.engine_error && replay.policy_error)
    r.error_at("policy_error",
               "a replay ends in one engine error: raised by its last action (engine_error) or while the "
               "policy chose after it (policy_error), not both");
  if (diags.empty()) {
    const std::size_t expected =
        replay.actions.size() - (replay.engine_error && !replay.actions.empty() ? 1 : 0);
    if (replay.engine_error && replay.actions.empty())
      r.error_at("engine_error", "an engine error needs the action that raised it: the action list is empty");
    else if (replay.state_hashes.size() != expected)
      r.error_at("state_hashes",
                 fmt::format("expected {} hashes (one per action{}), got {}", expected,
                             replay.engine_error ? " but the one that raised the engine error" : "",
                             replay.state_hashes.size()));
  }
  if (!diags.empty()) return diags;
  return replay;
}

/// Parses `text` (or the file at `path` when given), streaming its long arrays, and reads the
/// replay: every problem, those of parsing first (a repeated key is a problem of the file even
/// when the rest reads well).
Result<ReplayFile, Diagnostics> read_streamed(const std::filesystem::path* path, std::string file,
                                              std::string text, std::span<const std::string_view> rule_sets,
                                              const ActionCheckOf& check_of) {
  Diagnostics diags;
  ReplayArrays arrays;
  const auto streamed = arrays.streamed();
  auto doc = path != nullptr ? content::parse_json_file(*path, diags, streamed)
                             : content::parse_json_text(std::move(file), std::move(text), diags, streamed);
  if (!doc) return diags;
  auto replay = read_replay_document(*doc, std::move(arrays), rule_sets, check_of);
  if (!replay) {
    for (const content::Diagnostic& d : replay.error().items()) diags.add(d);
  }
  if (!diags.empty()) return diags;
  return ReplayFile{std::move(*doc), std::move(replay).value()};
}

/// The names of `rule_sets`, and the check of each by its name.
struct RuleSetChecks {
  std::vector<std::string_view> names;
  ActionCheckOf check_of;
};
RuleSetChecks checks_of(std::span<const ReplayRuleSet> rule_sets) {
  RuleSetChecks out;
  for (const ReplayRuleSet& s : rule_sets) out.names.push_back(s.name);
  out.check_of = [rule_sets](std::string_view rules) -> const ActionCheck* {
    for (const ReplayRuleSet& s : rule_sets)
      if (s.name == rules) return &s.check_action;
    return nullptr;
  };
  return out;
}

}  // namespace

Result<Replay, Diagnostics> replay_from_document(const JsonDocument& doc, const ActionCheck& check_action,
                                                 std::span<const std::string_view> rule_sets) {
  return read_replay_document(doc, ReplayArrays::of(doc.root), rule_sets,
                              [&](std::string_view) { return &check_action; });
}

Result<ReplayFile, Diagnostics> read_replay_text(std::string file, std::string text,
                                                 const ActionCheck& check_action) {
  return read_streamed(nullptr, std::move(file), std::move(text), {},
                       [&](std::string_view) { return &check_action; });
}

Result<ReplayFile, Diagnostics> read_replay_text(std::string file, std::string text,
                                                 std::span<const ReplayRuleSet> rule_sets) {
  const RuleSetChecks checks = checks_of(rule_sets);
  return read_streamed(nullptr, std::move(file), std::move(text), checks.names, checks.check_of);
}

Result<ReplayFile, Diagnostics> read_replay_file(const std::filesystem::path& path,
                                                 const ActionCheck& check_action) {
  return read_streamed(&path, {}, {}, {}, [&](std::string_view) { return &check_action; });
}

Result<ReplayFile, Diagnostics> read_replay_file(const std::filesystem::path& path,
                                                 std::span<const ReplayRuleSet> rule_sets) {
  const RuleSetChecks checks = checks_of(rule_sets);
  return read_streamed(&path, {}, {}, checks.names, checks.check_of);
}

Result<Replay, Diagnostics> read_replay(const std::filesystem::path& path, const ActionCheck& check_action) {
  auto file = read_replay_file(path, check_action);
  if (!file) return file.error();
  return std::move(file).value().replay;
}

Result<void> write_replay(const std::filesystem::path& path, const Replay& replay) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Error{fmt::format("cannot write replay file '{}'", path.string())};
  out << replay_to_json(replay).dump(2) << "\n";
  out.close();
  if (!out) return Error{fmt::format("cannot write replay file '{}'", path.string())};
  return {};
}

namespace detail {

std::string action_text(const json& action) { return action.dump(); }

ReplayCheck check_header(const Replay& replay, std::string_view rules, std::uint64_t content_hash) {
  using Kind = ReplayCheck::Kind;
  if (replay.rules != rules)
    return {Kind::Malformed, std::nullopt,
            fmt::format("the replay is of rule set '{}', not '{}'", replay.rules, rules)};
  if (replay.rng_version != kRngVersion)
    return {Kind::Malformed, std::nullopt, rng_version_problem(replay.rng_version)};
  if (replay.content_hash != content_hash)
    return {
        Kind::ContentMismatch, std::nullopt,
        fmt::format("content hash mismatch: the replay was recorded with content {}, the content given is {}",
                    content::hash_to_hex(replay.content_hash), content::hash_to_hex(content_hash))};
  return {Kind::Match, std::nullopt, ""};
}

std::optional<std::string> scenario_encounter_problem(const BattleStart& start) {
  if (!start.scenario.is_object()) return std::nullopt;
  const auto named = start.scenario.find("encounter");
  if (named == start.scenario.end() || !named->is_string() || *named == start.encounter) return std::nullopt;
  return fmt::format("the replay names encounter '{}', but its scenario starts encounter '{}'",
                     start.encounter, named->get<std::string>());
}

Diagnostics place_in_replay(const Diagnostics& scenario_problems, const ReplayFile& file) {
  Diagnostics placed;
  for (const content::Diagnostic& d : scenario_problems.items())
    placed.add(file.document.diagnostic("/scenario" + d.pointer, d.message));
  return placed;
}

}  // namespace detail
}  // namespace battlecore::sim
