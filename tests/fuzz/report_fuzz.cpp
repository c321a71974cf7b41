// libFuzzer target: any bytes as a simulation report (`battlecore report merge`). Reading gives a
// report or diagnostics. A report read writes out (to_json) as one that reads back equal; merged
// alone it is itself (a whole run) or refused (a shard); given twice it is refused; and as both
// shards of a run of twice its battles it merges into a report of doubled counts that reads back
// equal too.

#include <vector>

#include "battlecore/core/rng.hpp"
#include "battlecore/sim/report.hpp"
#include "fuzz_targets.hpp"

namespace {

using battlecore::fuzz::fail;
using battlecore::sim::SimReport;
using battlecore::sim::Tally;

bool same_report(const SimReport& a, const SimReport& b) {
  return static_cast<const Tally&>(a) == static_cast<const Tally&>(b) && a.rules == b.rules &&
         a.encounter == b.encounter && a.policy == b.policy && a.seed == b.seed &&
         a.content_hash == b.content_hash && a.engine_version == b.engine_version &&
         a.rng_version == b.rng_version && a.total_battles == b.total_battles &&
         a.shard_index == b.shard_index && a.shard_count == b.shard_count &&
         a.first_battle == b.first_battle && a.card_ids == b.card_ids && a.enemy_ids == b.enemy_ids &&
         a.seat_names == b.seat_names && a.seat_kinds == b.seat_kinds && a.seat_policies == b.seat_policies &&
         a.counter_names == b.counter_names && a.settings == b.settings &&
         a.enemy_damage_counted == b.enemy_damage_counted && a.versus_policy == b.versus_policy &&
         a.versus == b.versus && a.paired == b.paired && a.elapsed_s == b.elapsed_s;
}

/// `r` written by to_json and read again must be `r`.
void check_round_trip(const SimReport& r, const char* what) {
  const std::string written = r.to_json().dump();
  battlecore::content::Diagnostics diags;
  auto doc = battlecore::content::parse_json_text("written.json", written, diags);
  if (!doc || !diags.empty()) fail(std::string(what) + " writes JSON that does not parse: " + written);
  auto again = battlecore::sim::report_from_document(*doc);
  if (!again) fail(std::string(what) + " does not read back:\n" + again.error().to_string() + written);
  if (!same_report(again.value(), r)) fail(std::string(what) + " reads back otherwise: " + written);
}

/// `r` (a whole run) as shard `index` of 2 of a run of twice its battles: its failures moved to
/// that shard's battles, with their seeds.
SimReport as_half(const SimReport& r, std::uint32_t index) {
  SimReport half = r;
  half.shard_index = index;
  half.shard_count = 2;
  half.total_battles = 2 * r.battles;
  half.first_battle = index == 1 ? 0 : r.battles;
  for (Tally* t : {static_cast<Tally*>(&half), &half.versus})
    for (battlecore::sim::SimFailure& f : t->failures) {
      f.index += half.first_battle;
      f.battle_seed = battlecore::battle_seed(r.seed, f.index);
    }
  return half;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace battlecore;
  content::Diagnostics diags;
  auto doc = fuzz::fuzz_document(data, size, diags);
  if (!doc) return 0;
  if (!diags.empty()) return 0;  // a repeated key: read_report refuses the file
  auto read = sim::report_from_document(*doc);
  if (!read) {
    fuzz::check_refusal(read.error(), "a report");
    return 0;
  }
  const SimReport& r = read.value();
  check_round_trip(r, "a report read");

  auto alone = sim::merge_reports({r});
  if (r.shard_count == 1) {
    if (!alone) fail("a whole run does not merge alone: " + alone.error().message);
    if (!same_report(alone.value(), r)) fail("a whole run merged alone differs");
  } else if (alone) {
    fail("one shard of several merges alone");
  }
  if (sim::merge_reports({r, r})) fail("a shard given twice merges");

  if (r.shard_count != 1 || r.battles > sim::kMaxBattles / 2) return 0;
  auto doubled = sim::merge_reports({as_half(r, 2), as_half(r, 1)});
  if (!doubled) {
    // Only counts past their type's range are refused, and times whose sum passes the largest
    // number.
    if (doubled.error().message.find("no run has such counts") == std::string::npos &&
        doubled.error().message.find("no run has such times") == std::string::npos)
      fail("the two halves of a run do not merge: " + doubled.error().message);
    return 0;
  }
  const SimReport& d = doubled.value();
  if (d.battles != 2 * r.battles || d.wins != 2 * r.wins || d.turns != 2 * r.turns ||
      d.failures.size() != 2 * r.failures.size() || d.versus.battles != 2 * r.versus.battles ||
      d.paired.n() != 2 * r.paired.n())
    fail("the two halves of a run merge into other counts");
  check_round_trip(d, "a merged report");
  return 0;
}
