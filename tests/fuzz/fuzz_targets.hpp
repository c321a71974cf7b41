#pragma once
// The fuzz targets, generic over a rule-set adapter R (battlecore/sim/deckbuilder_rules.hpp):
// each rule set instantiates them in a file of a few lines (content_loader_fuzz.cpp,
// actions_fuzz.cpp). A broken check aborts, which libFuzzer reports with the input.
//
// - fuzz_content: any bytes as a content file. Loading must give a catalog or diagnostics,
//   never a crash, an exception or a sanitizer report; a catalog that loads must start every
//   encounter, and its battles, played by random legal options, must keep the rule set's
//   invariants and raise no engine error but the one content can cause past what the loader
//   checks (an effect's op budget: a loop). Where the rule set's snapshots restore from any
//   moment (R::kSnapshotsAtAnyEvent), a listener also snapshots the battles at a few events in
//   the middle of steps, and each must restore to an equal battle.
// - fuzz_actions: any bytes as a battle: an encounter, a seed, then a sequence of steps, each
//   a legal option by index, an arbitrary action from four bytes, or an action given as JSON
//   text. Legal options must be accepted; anything refused must leave the battle unchanged; the
//   rule set's invariants must hold after every step, and a snapshot must round-trip.
// - fuzz_replay: a replay file of rule set R, read as `battlecore replay` reads any bytes
//   (replay_fuzz.cpp: one pass, by the rule set its "rules" names), which must find what reading
//   the whole document finds. A replay read writes out and reads back the same; and a replay of
//   at most kMaxFuzzReplayActions actions is checked against R's bundled pack as `battlecore
//   replay` checks it, which must give an answer, never a crash.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "battlecore/content/content_hash.hpp"
#include "battlecore/content/json_reader.hpp"
#include "battlecore/core/decision.hpp"
#include "battlecore/core/events.hpp"
#include "battlecore/core/rng.hpp"
#include "battlecore/sim/replay.hpp"

namespace battlecore::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

/// Every diagnostic of a refusal has a message, and a refusal has one at least.
inline void check_refusal(const content::Diagnostics& diags, std::string_view what) {
  if (diags.empty()) fail(std::string(what) + " refused without a diagnostic");
  for (const auto& d : diags.items())
    if (d.message.empty()) fail(std::string(what) + ": a diagnostic without a message");
}

/// The fuzz input as a JSON document, or nullopt for one that does not parse (refused with a
/// diagnostic); `diags` keeps what parsing reported (a repeated key).
inline std::optional<content::JsonDocument> fuzz_document(const std::uint8_t* data, std::size_t size,
                                                          content::Diagnostics& diags) {
  auto doc =
      content::parse_json_text("fuzz.json", std::string(reinterpret_cast<const char*>(data), size), diags);
  if (!doc) check_refusal(diags, "a syntax error");
  return doc;
}

/// The most decisions fuzz_content plays on the battles of one content input, all encounters
/// together, so that an input that loads stays fast.
inline constexpr int kMaxFuzzContentDecisions = 300;

/// True for the one engine error content that loads may raise, which the loader cannot check:
/// an effect that runs more than its op budget (a loop in content; docs/deckbuilder.md, limits).
inline bool content_may_raise(const InvariantError& e) {
  return std::string_view(e.what()).find("a loop in content") != std::string_view::npos;
}

/// Plays `battle` by legal options picked from `seed`, `decisions` at most (counted down):
/// every listed option must be accepted, and the rule set's invariants hold after each.
template <class R>
void play_random(typename R::Battle& battle, std::uint64_t seed, int& decisions) {
  std::vector<typename R::Action> options;
  SplitMix64 picks{seed};
  typename R::Battle before = battle;  // assigned at each step, as in fuzz_actions
  while (decisions > 0 && battle.status() == Status::AwaitingDecision) {
    --decisions;
    battle.legal_actions(options);
    if (options.empty()) fail("a decision with no legal option");
    before = battle;
    const auto applied = battle.submit(options[picks.next() % options.size()]);
    if (!applied) fail("a legal option was refused: " + R::refusal_text(applied.error()));
    for (const std::string& broken : R::invariants(before, battle)) fail("invariant broken: " + broken);
  }
}

/// The most snapshots fuzz_content takes from an event listener on one input, one event in
/// kFuzzEventSnapshotOdds on average: each writes and reads the whole battle, and one at every
/// event would cost most of the run.
inline constexpr int kMaxFuzzEventSnapshots = 8;
inline constexpr std::uint64_t kFuzzEventSnapshotOdds = 16;

/// The event type of rule set R's battles.
template <class R>
using EventOf = typename std::remove_cvref_t<
    decltype(std::declval<const typename R::Battle&>().events().log())>::value_type;

/// Snapshots the battle it listens to at events picked from a seed, up to
/// kMaxFuzzEventSnapshots in all, and checks that each restores to an equal battle. The battle
/// is copied first with its event log left out: the snapshot would write all of it.
template <class R>
class EventSnapshots : public EventListener<EventOf<R>> {
 public:
  EventSnapshots(std::shared_ptr<const typename R::Catalog> catalog, std::uint64_t seed)
      : catalog_(std::move(catalog)), picks_{seed} {}
  /// Listens to `battle` (which must outlive it or be detached).
  void watch(typename R::Battle& battle) {
    battle_ = &battle;
    battle.events().attach(this);
  }
  void on_event(const EventOf<R>&) override {
    if (left_ == 0 || picks_.next() % kFuzzEventSnapshotOdds != 0) return;
    --left_;
    typename R::Battle copy = *battle_;
    copy.events().clear_log();
    auto restored = R::restore(catalog_, R::snapshot(copy));
    if (!restored) fail("a snapshot taken at an event does not restore: " + restored.error().message);
    if (!(restored.value() == copy)) fail("a snapshot taken at an event restores to another battle");
  }

 private:
  std::shared_ptr<const typename R::Catalog> catalog_;
  const typename R::Battle* battle_ = nullptr;
  SplitMix64 picks_;
  int left_ = kMaxFuzzEventSnapshots;
};

template <class R>
int fuzz_content(const std::uint8_t* data, std::size_t size) {
  content::Diagnostics diags;
  auto doc = fuzz_document(data, size, diags);
  if (!doc) return 0;
  std::vector<content::JsonDocument> docs;
  docs.push_back(std::move(*doc));
  auto catalog = R::load(docs);
  if (!catalog) {
    if (catalog.error().empty()) fail("a refused load without a diagnostic");
    for (const auto& d : catalog.error().items())
      if (d.message.empty()) fail("a diagnostic without a message");
    return 0;
  }
  // Content that loads must start each of its encounters and play them.
  int decisions = kMaxFuzzContentDecisions;
  const std::uint64_t seed =
      content::fnv1a(content::kFnvOffset, std::string_view(reinterpret_cast<const char*>(data), size));
  EventSnapshots<R> event_snapshots(catalog.value(), seed ^ 0x736e6170ull);
  for (const std::string& encounter : R::encounters(*catalog.value())) {
    try {
      auto started = R::start(catalog.value(), sim::BattleStart{encounter, seed, {}});
      if (!started) fail("an encounter of content that loads does not start: " + started.error().message);
      if constexpr (R::kSnapshotsAtAnyEvent) event_snapshots.watch(started.value());
      play_random<R>(started.value(), seed, decisions);
    } catch (const InvariantError& e) {
      if (!content_may_raise(e)) fail(std::string("content that loads raised an engine error: ") + e.what());
    }
  }
  return 0;
}

/// Reads bytes from the front of the input.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint64_t next64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | next();
    return v;
  }
  std::string text(std::size_t n) {
    std::string s;
    while (n-- > 0 && !empty()) s.push_back(static_cast<char>(next()));
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// The most snapshot round trips one input of fuzz_actions makes; the bytes asking for more are
/// skipped. A round trip writes and reads the whole battle, its event log and history included,
/// which costs as much as hundreds of steps: with one per such byte, the inputs that hold many
/// spent most of the run there (a fifth of the inputs a second, and less coverage in as long).
inline constexpr int kMaxFuzzRoundTrips = 1;

template <class R>
int fuzz_actions(const std::shared_ptr<const typename R::Catalog>& catalog, const std::uint8_t* data,
                 std::size_t size) {
  using Battle = typename R::Battle;
  using Action = typename R::Action;
  Bytes in(data, size);
  const auto encounters = R::encounters(*catalog);
  if (encounters.empty()) return 0;
  const std::string encounter = encounters[in.next() % encounters.size()];
  auto started = R::start(catalog, sim::BattleStart{encounter, in.next64(), {}});
  if (!started) fail("a bundled encounter does not start: " + started.error().message);
  Battle& b = started.value();
  std::vector<Action> options;
  int steps = 0;
  int round_trips = 0;
  // Assigned at each step rather than made anew: the copy reuses the storage of the event log
  // and the history, which grow with the battle, instead of allocating them again.
  Battle before = b;
  while (!in.empty() && steps++ < 400) {
    before = b;
    const std::uint8_t op = in.next();
    if (op < 0xE0) {  // a legal option by index
      if (b.status() != Status::AwaitingDecision) continue;
      b.legal_actions(options);
      if (options.empty()) fail("a decision with no legal option");
      const auto applied = b.submit(options[op % options.size()]);
      if (!applied) fail("a legal option was refused: " + R::refusal_text(applied.error()));
    } else if (op < 0xF8) {  // an arbitrary action
      std::array<std::uint8_t, 4> bytes{in.next(), in.next(), in.next(), in.next()};
      if (!b.submit(R::action_from_bytes(bytes)).ok() && !(b == before))
        fail("a refused action changed the battle");
    } else if (op < 0xFE) {  // an action as JSON text (often malformed)
      const auto j = nlohmann::json::parse(in.text(in.next() % 48), nullptr, false);
      if (j.is_discarded()) continue;
      auto action = R::action_from_json(j);
      if (action && !b.submit(action.value()).ok() && !(b == before))
        fail("a refused action changed the battle");
    } else {  // a snapshot round trip
      if (++round_trips > kMaxFuzzRoundTrips) continue;
      auto restored = R::restore(catalog, R::snapshot(b));
      if (!restored) fail("a snapshot does not restore: " + restored.error().message);
      if (!(restored.value() == b)) fail("a restored battle differs");
      continue;
    }
    for (const std::string& broken : R::invariants(before, b)) fail("invariant broken: " + broken);
  }
  return 0;
}

/// The bundled pack data/<rules>/<pack>/ of rule set R, loaded once; a pack that does not load
/// fails the run.
template <class R>
const std::shared_ptr<const typename R::Catalog>& bundled_pack(std::string_view pack) {
  static const std::shared_ptr<const typename R::Catalog> catalog = [&] {
    auto loaded =
        R::load(std::filesystem::path(BATTLECORE_DATA_DIR) / std::string(R::kName) / std::string(pack));
    if (!loaded) fail("the bundled pack does not load:\n" + loaded.error().to_string());
    return loaded.value();
  }();
  return catalog;
}

/// fuzz_actions on R's bundled pack `pack`: the actions target of a rule set is this one call.
template <class R>
int fuzz_bundled_actions(std::string_view pack, const std::uint8_t* data, std::size_t size) {
  return fuzz_actions<R>(bundled_pack<R>(pack), data, size);
}

/// The most actions of a replay that fuzz_replay plays, so that one input stays fast.
inline constexpr std::size_t kMaxFuzzReplayActions = 200;

/// The rule sets a replay file may name, as `battlecore replay` reads them.
using ReplayRuleSets = std::span<const sim::ReplayRuleSet>;

/// Reading `text` in one pass (sim::read_replay_text) must find what reading its whole document
/// finds (content::parse_json_text, then sim::replay_from_document with the check of the rule
/// set it names), the same problems in the same order or the same replay.
inline void check_one_pass_reading(const std::string& text, ReplayRuleSets rule_sets,
                                   const Result<sim::ReplayFile, content::Diagnostics>& read) {
  content::Diagnostics whole;
  const auto doc = content::parse_json_text("fuzz.json", text, whole);
  std::optional<sim::Replay> replay;
  if (doc) {
    std::vector<std::string_view> names;
    const sim::ActionCheck* check = nullptr;
    const auto rules = doc->root.is_object() ? doc->root.find("rules") : doc->root.end();
    for (const sim::ReplayRuleSet& s : rule_sets) {
      names.push_back(s.name);
      if (rules != doc->root.end() && rules->is_string() && *rules == s.name) check = &s.check_action;
    }
    auto from_document = sim::replay_from_document(*doc, check ? *check : sim::ActionCheck{}, names);
    if (from_document)
      replay = std::move(from_document).value();
    else
      for (const content::Diagnostic& d : from_document.error().items()) whole.add(d);
  }
  if (!whole.empty()) {
    if (read) fail("a replay read in one pass, refused as a whole document:\n" + whole.to_string());
    if (read.error().to_string() != whole.to_string())
      fail("a replay read in one pass reports otherwise:\n" + read.error().to_string() +
           "than as a whole:\n" + whole.to_string());
    return;
  }
  if (!read) fail("a replay read as a whole document, refused in one pass:\n" + read.error().to_string());
  if (sim::replay_to_json(read.value().replay) != sim::replay_to_json(*replay))
    fail("a replay read in one pass reads otherwise than as a whole document");
}

/// `file`, a replay of rule set R read among `rule_sets`, checked against R's bundled pack `pack`.
template <class R>
int fuzz_replay(std::string_view pack, const sim::ReplayFile& file, ReplayRuleSets rule_sets) {
  const sim::Replay& replay = file.replay;
  if (replay.rules != R::kName)
    fail("a replay of rules '" + replay.rules + "' read as " + std::string(R::kName));
  // What is read writes out as a replay that reads back the same.
  const std::string written = sim::replay_to_json(replay).dump();
  auto again = sim::read_replay_text("written.json", written, rule_sets);
  if (!again) fail("a written replay does not read back:\n" + again.error().to_string() + written);
  if (sim::replay_to_json(again.value().replay).dump() != written)
    fail("a replay reads back otherwise: " + written);

  if (replay.actions.size() > kMaxFuzzReplayActions) return 0;
  const auto& catalog = bundled_pack<R>(pack);
  const content::Diagnostics problems = sim::replay_start_problems<R>(catalog, file);
  for (const auto& d : problems.items())
    if (d.message.empty()) fail("a start problem without a message");
  // `battlecore replay` stops at start problems; check_replay must answer either way.
  const sim::ReplayCheck check = sim::check_replay<R>(catalog, replay);
  if (check.message.empty()) fail("a replay check without a message");
  if (check.action && *check.action >= replay.actions.size()) fail("a replay check names an action it lacks");
  if (check.kind == sim::ReplayCheck::Kind::Match && !problems.empty())
    fail("a replay matches although it does not start:\n" + problems.to_string());
  return 0;
}

}  // namespace battlecore::fuzz
