#include "battlecore/sim/replay.hpp"

#include <fstream>
#include <limits>

#include <fmt/format.h>

namespace battlecore::sim {

using content::Diagnostics;
using content::JsonDocument;
using content::ObjectReader;
using nlohmann::json;

std::string_view engine_version() { return BATTLECORE_VERSION; }

nlohmann::ordered_json replay_to_json(const Replay& r) {
  using ojson = nlohmann::ordered_json;
  ojson actions = ojson::array();
  for (const json& a : r.actions) actions.push_back(ojson::parse(a.dump()));
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

/// A value given where a card id was expected, for messages.
std::string given_card_id(const json& value) {
  if (!value.is_string()) return content::describe_json_type(value);
  const auto& text = value.get_ref<const std::string&>();
  return text.empty() ? std::string("an empty string") : "'" + text + "'";
}

std::optional<std::uint64_t> read_hash(ObjectReader& r, std::string_view key) {
  const auto text = r.required_string(key);
  if (!text) return std::nullopt;
  const auto h = content::hash_from_hex(*text);
  if (!h) r.error_at(key, fmt::format("expected a hash of 16 hex digits, got '{}'", *text));
  return h;
}

}  // namespace

Result<Replay, Diagnostics> replay_from_document(const JsonDocument& doc, const ActionCheck& check_action,
                                                 std::span<const std::string_view> rule_sets) {
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
                               given_card_id(card)));
    }
    if (deck->empty())
      r.error_at("deck", "expected at least one card (leave the key out for the encounter's deck)");
    if (!replay.start.scenario.is_null()) r.error_at("deck", std::string(kDeckWithScenario));
  }
  replay.start_state_hash = read_hash(r, "start_state_hash").value_or(0);
  if (const json* actions = r.required_array("actions")) {
    for (std::size_t i = 0; i < actions->size(); ++i) {
      const json& action = (*actions)[i];
      if (!action.is_object())
        diags.add(doc.diagnostic(content::child_pointer("/actions", i),
                                 "expected an action object, got " + content::describe_json_type(action)));
      else if (const auto problem = check_action ? check_action(action) : std::nullopt)
        diags.add(doc.diagnostic(content::child_pointer("/actions", i), *problem));
      replay.actions.push_back(action);
    }
  }
  if (const json* hashes = r.required_array("state_hashes")) {
    for (std::size_t i = 0; i < hashes->size(); ++i) {
      const json& h = (*hashes)[i];
      const auto parsed = h.is_string() ? content::hash_from_hex(h.get<std::string>()) : std::nullopt;
      if (!parsed)
        diags.add(
            doc.diagnostic(content::child_pointer("/state_hashes", i), "expected a hash of 16 hex digits"));
      replay.state_hashes.push_back(parsed.value_or(0));
    }
  }
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

namespace {

/// The replay in `doc`, a parsed file, or every problem: `diags` (those found parsing it, such as
/// a duplicate key, a problem of the file even when the rest reads well), then the reading's.
Result<ReplayFile, Diagnostics> replay_in(JsonDocument doc, Diagnostics diags,
                                          const ActionCheck& check_action,
                                          std::span<const std::string_view> rule_sets) {
  auto replay = replay_from_document(doc, check_action, rule_sets);
  if (!replay) {
    for (const content::Diagnostic& d : replay.error().items()) diags.add(d);
  }
  if (!diags.empty()) return diags;
  return ReplayFile{std::move(doc), std::move(replay).value()};
}

}  // namespace

Result<ReplayFile, Diagnostics> read_replay_file(const std::filesystem::path& path,
                                                 const ActionCheck& check_action) {
  Diagnostics diags;
  auto doc = content::parse_json_file(path, diags);
  if (!doc) return diags;
  return replay_in(std::move(*doc), std::move(diags), check_action, {});
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

Result<std::string, Diagnostics> replay_rules(const std::filesystem::path& path,
                                              std::span<const std::string_view> rule_sets) {
  Diagnostics diags;
  auto doc = content::parse_json_file(path, diags);
  if (!doc) return diags;
  // A rule set named well reads the whole file itself, its actions too. Otherwise the file is read
  // as far as it can be without one, which reports `rules` among the rest.
  Diagnostics rules_problem;  // reported again by that reading
  ObjectReader r(*doc, doc->root, "", rules_problem);
  if (const auto rules = r.required_enum("rules", rule_sets)) return std::string(rule_sets[*rules]);
  auto file = replay_in(std::move(*doc), std::move(diags), {}, rule_sets);
  if (!file) return file.error();
  return file.value().replay.rules;
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
