#pragma once
/// What every rule set's snapshot format shares (docs/determinism.md#snapshots): strict reading
/// of a snapshot's JSON objects with the JSON pointer of each problem, the header (format,
/// format_version, rules, content_hash), the RNG streams and the transition history.

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/phase_machine.hpp"
#include "battlecore/core/result.hpp"
#include "battlecore/core/rng.hpp"

namespace battlecore::content {

inline constexpr std::string_view kSnapshotFormat = "battlecore-snapshot";

/// A snapshot field that cannot be read: its pointer and what was wrong.
struct SnapshotError {
  std::string pointer;
  std::string message;
  /// "snapshot refused: /pointer: message".
  std::string text() const {
    return fmt::format("snapshot refused: {}: {}", pointer.empty() ? "/" : pointer, message);
  }
};

/// Strict reading of one JSON object of a snapshot; problems throw SnapshotError.
class SnapshotIn {
 public:
  SnapshotIn(const nlohmann::json& j, std::string pointer) : j_(j), ptr_(std::move(pointer)) {
    if (!j_.is_object()) throw SnapshotError{ptr_, "expected an object, got " + describe_json_type(j_)};
  }
  const nlohmann::json& at(std::string_view key) const {
    const auto it = j_.find(key);
    if (it == j_.end()) throw SnapshotError{ptr_, fmt::format("missing key '{}'", key)};
    return *it;
  }
  std::string ptr(std::string_view key) const { return child_pointer(ptr_, key); }
  /// True when the object has `key` (for keys a snapshot may leave out).
  bool has(std::string_view key) const { return j_.find(key) != j_.end(); }
  std::int64_t num(std::string_view key, std::int64_t lo, std::int64_t hi) const {
    return number(at(key), ptr(key), lo, hi);
  }
  std::uint64_t u64(std::string_view key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      throw SnapshotError{ptr(key), "expected an unsigned integer, got " + describe_json_type(v)};
    return v.get<std::uint64_t>();
  }
  bool flag(std::string_view key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_boolean()) throw SnapshotError{ptr(key), "expected a boolean, got " + describe_json_type(v)};
    return v.get<bool>();
  }
  std::string str(std::string_view key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_string()) throw SnapshotError{ptr(key), "expected a string, got " + describe_json_type(v)};
    return v.get<std::string>();
  }
  const nlohmann::json& arr(std::string_view key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_array()) throw SnapshotError{ptr(key), "expected an array, got " + describe_json_type(v)};
    return v;
  }
  /// An array of at most `max` entries.
  const nlohmann::json& arr(std::string_view key, std::size_t max, std::string_view what) const {
    const nlohmann::json& v = arr(key);
    if (v.size() > max) throw SnapshotError{ptr(key), fmt::format("more than {} {}", max, what)};
    return v;
  }
  SnapshotIn obj(std::string_view key) const { return SnapshotIn(at(key), ptr(key)); }
  /// The entry `i` of array `key`, as an object.
  SnapshotIn entry(std::string_view key, std::size_t i) const {
    return SnapshotIn(at(key)[i], child_pointer(ptr(key), i));
  }
  template <std::size_t N>
  std::size_t name(std::string_view key, const std::array<std::string_view, N>& names) const {
    return name_of(at(key), ptr(key), names);
  }

  static std::int64_t number(const nlohmann::json& v, const std::string& pointer, std::int64_t lo,
                             std::int64_t hi) {
    if (!v.is_number_integer())
      throw SnapshotError{pointer, "expected an integer, got " + describe_json_type(v)};
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
      throw SnapshotError{pointer, fmt::format("expected an integer in [{}, {}]", lo, hi)};
    const auto n = v.get<std::int64_t>();
    if (n < lo || n > hi)
      throw SnapshotError{pointer, fmt::format("expected an integer in [{}, {}], got {}", lo, hi, n)};
    return n;
  }
  template <std::size_t N>
  static std::size_t name_of(const nlohmann::json& v, const std::string& pointer,
                             const std::array<std::string_view, N>& names) {
    if (!v.is_string()) throw SnapshotError{pointer, "expected a string, got " + describe_json_type(v)};
    const auto& s = v.get_ref<const std::string&>();
    for (std::size_t i = 0; i < N; ++i)
      if (names[i] == s) return i;
    throw SnapshotError{pointer, fmt::format("unknown value '{}'", s)};
  }

 private:
  const nlohmann::json& j_;
  std::string ptr_;
};

/// Checks a snapshot's header: `format`, `format_version` (== `version`), `rules` and
/// The index of the definition whose id is the string `v`.
template <class Id, class Defs>
Id find_snapshot_id(const Defs& defs, const nlohmann::json& v, const std::string& pointer,
                    std::string_view what) {
  if (!v.is_string())
    throw SnapshotError{pointer, fmt::format("expected a {} id, got {}", what, describe_json_type(v))};
  const auto& id = v.get_ref<const std::string&>();
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (defs[i].id == id) return static_cast<Id>(i);
  throw SnapshotError{pointer, fmt::format("no {} '{}' in the content", what, id)};
}

/// `content_hash`; throws SnapshotError naming the first that does not fit.
inline void check_snapshot_header(const SnapshotIn& root, std::uint32_t version, std::string_view rules,
                                  std::uint64_t content_hash) {
  const std::string format = root.str("format");
  if (format != kSnapshotFormat)
    throw SnapshotError{"/format", fmt::format("expected \"{}\", got \"{}\"", kSnapshotFormat, format)};
  const auto v = root.num("format_version", 0, INT32_MAX);
  if (v != version)
    throw SnapshotError{
        "/format_version",
        fmt::format("snapshot format version {} is not supported; this engine reads version {}", v, version)};
  const std::string r = root.str("rules");
  if (r != rules)
    throw SnapshotError{"/rules", fmt::format("the snapshot is of rule set '{}', not '{}'", r, rules)};
  const std::string hash = root.str("content_hash");
  if (hash != hash_to_hex(content_hash))
    throw SnapshotError{"/content_hash",
                        fmt::format("the snapshot was made with content {}, the content given is {}", hash,
                                    hash_to_hex(content_hash))};
}

/// The header every snapshot starts with.
inline nlohmann::json snapshot_header(std::uint32_t version, std::string_view rules,
                                      std::uint64_t content_hash) {
  return {{"format", kSnapshotFormat},
          {"format_version", version},
          {"rules", rules},
          {"content_hash", hash_to_hex(content_hash)}};
}

inline constexpr std::array<std::string_view, kStreamCount> kSnapshotStreamKeys = {
    "setup", "shuffle", "ai", "dice", "loot", "effects"};

/// The RNG streams: their four state words each, as 16 lower-case hex digits.
inline nlohmann::json rng_to_json(const RngStreams& rng) {
  nlohmann::json out = nlohmann::json::object();
  for (std::size_t k = 0; k < kStreamCount; ++k) {
    nlohmann::json words = nlohmann::json::array();
    for (std::uint64_t w : rng.words(static_cast<Stream>(k))) words.push_back(hash_to_hex(w));
    out[std::string(kSnapshotStreamKeys[k])] = words;
  }
  return out;
}

inline void read_rng(const SnapshotIn& rng, RngStreams& out) {
  for (std::size_t k = 0; k < kStreamCount; ++k) {
    const nlohmann::json& words = rng.arr(kSnapshotStreamKeys[k]);
    const std::string p = rng.ptr(kSnapshotStreamKeys[k]);
    if (words.size() != 4) throw SnapshotError{p, "expected 4 state words"};
    std::array<std::uint64_t, 4> st{};
    for (std::size_t w = 0; w < 4; ++w) {
      const auto h = words[w].is_string() ? hash_from_hex(words[w].get<std::string>()) : std::nullopt;
      if (!h) throw SnapshotError{child_pointer(p, w), "expected 16 lower-case hex digits"};
      st[w] = *h;
    }
    out[static_cast<Stream>(k)].set_state(st);
  }
}

template <class Machine>
typename Machine::Phase snapshot_phase(const nlohmann::json& v, const std::string& pointer) {
  if (v.is_string())
    for (std::size_t i = 0; i < Machine::kPhaseNames.size(); ++i)
      if (Machine::kPhaseNames[i] == v.get<std::string>()) return static_cast<typename Machine::Phase>(i);
  throw SnapshotError{pointer, "expected a phase name"};
}

template <class Machine>
typename Machine::Trigger snapshot_trigger(const nlohmann::json& v, const std::string& pointer) {
  if (v.is_string())
    for (std::size_t i = 0; i < Machine::kTriggerNames.size(); ++i)
      if (Machine::kTriggerNames[i] == v.get<std::string>()) return static_cast<typename Machine::Trigger>(i);
  throw SnapshotError{pointer, "expected a trigger name"};
}

/// The transition history as rows [sequence, turn, from, trigger, to].
template <class Machine>
nlohmann::json history_to_json(
    const std::vector<TransitionRecord<typename Machine::Phase, typename Machine::Trigger>>& h) {
  using PM = PhaseMachine<Machine>;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : h)
    out.push_back(
        {r.sequence, r.turn, PM::phase_name(r.from), PM::trigger_name(r.trigger), PM::phase_name(r.to)});
  return out;
}

template <class Machine>
std::vector<TransitionRecord<typename Machine::Phase, typename Machine::Trigger>> read_history(
    const nlohmann::json& hist, const std::string& pointer) {
  std::vector<TransitionRecord<typename Machine::Phase, typename Machine::Trigger>> history;
  for (std::size_t i = 0; i < hist.size(); ++i) {
    const std::string p = child_pointer(pointer, i);
    const nlohmann::json& r = hist[i];
    if (!r.is_array() || r.size() != 5)
      throw SnapshotError{p, "expected [sequence, turn, from, trigger, to]"};
    history.push_back({static_cast<std::uint32_t>(SnapshotIn::number(r[0], p + "/0", 0, UINT32_MAX)),
                       static_cast<std::uint32_t>(SnapshotIn::number(r[1], p + "/1", 0, UINT32_MAX)),
                       snapshot_phase<Machine>(r[2], p + "/2"), snapshot_trigger<Machine>(r[3], p + "/3"),
                       snapshot_phase<Machine>(r[4], p + "/4")});
  }
  return history;
}

/// The phase driver's part of a snapshot: `phase`, `moves`, `history`, `pending_trigger`.
template <class Machine>
struct DriverSnapshot {
  typename Machine::Phase phase{};
  std::uint32_t moves = 0;
  std::vector<TransitionRecord<typename Machine::Phase, typename Machine::Trigger>> history;
  std::optional<typename Machine::Trigger> pending;
};

template <class Machine>
DriverSnapshot<Machine> read_driver(const SnapshotIn& root) {
  DriverSnapshot<Machine> d;
  d.phase = snapshot_phase<Machine>(root.at("phase"), root.ptr("phase"));
  d.moves = static_cast<std::uint32_t>(root.num("moves", 0, UINT32_MAX));
  d.history = read_history<Machine>(root.arr("history"), root.ptr("history"));
  if (const nlohmann::json& pending = root.at("pending_trigger"); !pending.is_null())
    d.pending = snapshot_trigger<Machine>(pending, root.ptr("pending_trigger"));
  return d;
}

/// Restores a battle's driver (phase, moves, history) and queued trigger from a snapshot.
template <class Machine, class Driver>
void restore_driver(const SnapshotIn& root, Driver& driver, bool& has_pending,
                    typename Machine::Trigger& pending) {
  auto d = read_driver<Machine>(root);
  driver.restore(d.phase, d.moves, std::move(d.history));
  has_pending = d.pending.has_value();
  if (d.pending) pending = *d.pending;
}

/// The `actions` array, each read by the rule set's `action_from_json`.
template <class Action, class FromJson>
std::vector<Action> read_actions(const SnapshotIn& root, FromJson from_json) {
  std::vector<Action> out;
  const nlohmann::json& actions = root.arr("actions");
  for (std::size_t i = 0; i < actions.size(); ++i) {
    auto a = from_json(actions[i]);
    if (!a) throw SnapshotError{child_pointer(root.ptr("actions"), i), a.error().message};
    out.push_back(a.value());
  }
  return out;
}

/// The `events` array: each event a row [type, fields...] of `width` entries whose type is one
/// of the first `types` values of the rule set's EventType (named by `type_name`); `read` fills
/// the other fields from the row.
template <class Event, class TypeName, class Read>
std::vector<Event> read_events(const SnapshotIn& root, std::size_t width, std::string_view layout,
                               std::size_t types, TypeName type_name, Read read) {
  std::vector<Event> log;
  const nlohmann::json& events = root.arr("events");
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string p = child_pointer(root.ptr("events"), i);
    const nlohmann::json& e = events[i];
    if (!e.is_array() || e.size() != width || !e[0].is_string())
      throw SnapshotError{p, fmt::format("expected {}", layout)};
    Event ev{};
    bool known = false;
    for (std::size_t t = 0; t < types && !known; ++t)
      if (type_name(static_cast<decltype(ev.type)>(t)) == e[0].get<std::string>()) {
        ev.type = static_cast<decltype(ev.type)>(t);
        known = true;
      }
    if (!known) throw SnapshotError{p + "/0", "unknown event type"};
    read(e, p, ev);
    log.push_back(ev);
  }
  return log;
}

/// The layout of events rows shared by the deckbuilder and the party.
inline constexpr std::string_view kEventRowLayout = "[type, source, target, subject, value, amount, extra]";

/// Reads the fields of a row in kEventRowLayout (`source` and `target` 8-bit, `subject` and
/// `value` 16-bit, `amount` and `extra` 32-bit): the `read` of read_events.
template <class Event>
void read_event_row(const nlohmann::json& e, const std::string& p, Event& ev) {
  ev.source = static_cast<decltype(ev.source)>(SnapshotIn::number(e[1], p + "/1", -128, 127));
  ev.target = static_cast<decltype(ev.target)>(SnapshotIn::number(e[2], p + "/2", -128, 127));
  ev.subject = static_cast<std::uint16_t>(SnapshotIn::number(e[3], p + "/3", 0, 65535));
  ev.value = static_cast<std::uint16_t>(SnapshotIn::number(e[4], p + "/4", 0, 65535));
  ev.amount = static_cast<std::int32_t>(SnapshotIn::number(e[5], p + "/5", INT32_MIN, INT32_MAX));
  ev.extra = static_cast<std::int32_t>(SnapshotIn::number(e[6], p + "/6", INT32_MIN, INT32_MAX));
}

/// Throws SnapshotError at the first key of `given` (in key order, through its objects and
/// arrays) that `written`, the snapshot the engine writes of the battle `given` restored, does
/// not have: the format has no such key, and a misspelt key that may be left out would
/// otherwise restore as its default.
inline void refuse_unknown_keys(const nlohmann::json& given, const nlohmann::json& written,
                                const std::string& pointer) {
  if (given.is_object() && written.is_object()) {
    for (const auto& [key, value] : given.items()) {
      const auto it = written.find(key);
      if (it == written.end()) {
        std::vector<std::string> allowed;
        for (const auto& [k, v] : written.items()) allowed.push_back(k);
        throw SnapshotError{child_pointer(pointer, key),
                            fmt::format("unknown key '{}'; allowed keys: {}", key, fmt::join(allowed, ", "))};
      }
      refuse_unknown_keys(value, *it, child_pointer(pointer, key));
    }
  } else if (given.is_array() && written.is_array()) {
    for (std::size_t i = 0; i < std::min(given.size(), written.size()); ++i)
      refuse_unknown_keys(given[i], written[i], child_pointer(pointer, i));
  }
}

/// The frame of every rule set's restore: refuses a missing catalog, checks the header against
/// the catalog and the rule set's format version, reads the options, then `read(root, options)`
/// builds the battle, and a key the format does not have is refused (refuse_unknown_keys, with
/// `write`, the rule set's snapshot). A SnapshotError thrown anywhere becomes the refusal, with
/// its pointer.
template <class Machine, class Battle, class Options, class Catalog, class Read, class Write>
Result<Battle> restore_snapshot(const std::shared_ptr<const Catalog>& catalog, const nlohmann::json& j,
                                std::uint32_t version, Read read, Write write) {
  if (!catalog) return Error{"snapshot refused: no catalog given"};
  try {
    const SnapshotIn root(j, "");
    check_snapshot_header(root, version, Machine::kRules, catalog->content_hash);
    const SnapshotIn opts = root.obj("options");
    Result<Battle> battle = read(
        root, Options{.event_log = opts.flag("event_log"), .record_history = opts.flag("record_history")});
    if (battle) refuse_unknown_keys(j, write(battle.value()), "");
    return battle;
  } catch (const SnapshotError& bad) {
    return Error{bad.text()};
  }
}

}  // namespace battlecore::content
