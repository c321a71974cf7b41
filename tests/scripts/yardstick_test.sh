#!/usr/bin/env bash
# scripts/yardstick.sh: a bad command line and a missing yardstick exit 2 with the reason; a run
# against a stand-in yardstick (a program printing w1-limit's keys) prints a ratio per round and
# both sides' statistics. Usage: yardstick_test.sh BATTLECORE_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(bash "$here/scripts/yardstick.sh" 0 2>&1); rc=$?
[[ $rc == 2 && $out == *usage:* ]] || fail "rounds 0: rc $rc, $out"
out=$(bash "$here/scripts/yardstick.sh" 1 2000 extra 2>&1); rc=$?
[[ $rc == 2 && $out == *usage:* ]] || fail "three arguments: rc $rc, $out"
out=$(W1_LIMIT_SOURCE=$work/none.cpp BATTLECORE=$cli bash "$here/scripts/yardstick.sh" 1 2000 2>&1); rc=$?
[[ $rc == 2 && $out == *"no w1_limit.cpp at $work/none.cpp"* ]] || fail "missing source: rc $rc, $out"

# The stand-in reports 4,000,000 battles a second, so every ratio is 4,000,000 over battlecore's rate.
cat > "$work/w1_limit.cpp" <<'CPP'
#include <cstdio>
int main() {
  std::printf("battles 2000\nwin_rate 0.8800\nmean_turns 8.0000\nmean_decisions 21.9000\n"
              "mean_hp_left_on_wins 40.5000\nbattles_per_s 4000000\n");
}
CPP
out=$(W1_LIMIT_SOURCE=$work/w1_limit.cpp BATTLECORE=$work/none bash "$here/scripts/yardstick.sh" 1 2000 2>&1); rc=$?
[[ $rc == 2 && $out == *"no battlecore binary at $work/none"* ]] || fail "missing binary: rc $rc, $out"
out=$(W1_LIMIT_SOURCE=$work/w1_limit.cpp BATTLECORE=$cli bash "$here/scripts/yardstick.sh" 2 2000 2>&1); rc=$?
[[ $rc == 0 ]] || fail "run: rc $rc, $out"
rounds=$(grep -cE '^[12] +4000000 +[0-9]+ +[0-9.]+x$' <<< "$out")
[[ $rounds == 2 ]] || fail "expected two rounds against 4000000, got: $out"
# Each ratio is the stand-in's rate over battlecore's, to the two decimals printed. The rate is
# printed rounded to a whole number and the ratio comes from the rate before rounding: the ratio
# must lie between those of the rates half a battle per second either side, give or take its
# last printed decimal.
while read -r round limit rate ratio; do
  awk -v l="$limit" -v b="$rate" -v r="${ratio%x}" \
    'BEGIN { exit !(r >= l / (b + 0.5) - 0.005 && r <= l / (b - 0.5) + 0.005) }' ||
    fail "round $round: ratio $ratio, not $limit over $rate"
done < <(grep -E '^[12] ' <<< "$out")
"$cli" sim --rules deckbuilder --encounter w1 --battles 2000 --seed 1 --json > "$work/sim.json"
win_rate=$(sed -n 's/.*"win_rate":\([0-9.]*\).*/\1/p' "$work/sim.json")
expected=$(awk -v w="$win_rate" 'BEGIN { printf "win_rate %.4f %.4f", 0.88, w }')
[[ $(grep '^win_rate' <<< "$out" | tr -s ' ') == "$expected" ]] || fail "statistics: $out (expected $expected)"
echo "yardstick_test: ok"
