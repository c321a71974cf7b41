#!/usr/bin/env bash
# W1 beside its hand-coded yardstick (w1-limit), as docs/performance.md measures it: ROUNDS
# rounds, each a run of the yardstick then a run of `battlecore sim`, both pinned to one core
# and both writing their output to a file (a program reading a pipe would start beside the run
# and take the core for part of it). Prints each round, the ratio per round, and W1's statistics
# from both, which must agree within sampling error.
#
#   scripts/yardstick.sh [ROUNDS [BATTLES]]        (defaults: 4 rounds of 1000000 battles)
#
# W1_LIMIT_SOURCE names w1_limit.cpp (default: ../shared/tools/w1-limit/w1_limit.cpp, beside the
# checkout); BATTLECORE names the binary (default: build/release/apps/battlecore/battlecore, which
# `make build` makes); CPU the core to pin to (default 0).
set -euo pipefail

usage() {
  echo "usage: scripts/yardstick.sh [ROUNDS [BATTLES]]  (ROUNDS 1 to 100, BATTLES 1000 to 100000000)" >&2
  exit 2
}
rounds=${1:-4}
battles=${2:-1000000}
[[ $# -le 2 && $rounds =~ ^[0-9]+$ && $battles =~ ^[0-9]+$ ]] || usage
((rounds >= 1 && rounds <= 100 && battles >= 1000 && battles <= 100000000)) || usage

here=$(cd "$(dirname "$0")/.." && pwd)
source_file=${W1_LIMIT_SOURCE:-$here/../shared/tools/w1-limit/w1_limit.cpp}
battlecore=${BATTLECORE:-$here/build/release/apps/battlecore/battlecore}
cpu=${CPU:-0}
[[ -f $source_file ]] || { echo "yardstick: no w1_limit.cpp at $source_file (set W1_LIMIT_SOURCE)" >&2; exit 2; }
[[ -x $battlecore ]] || { echo "yardstick: no battlecore binary at $battlecore (run make build, or set BATTLECORE)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O3 -std=c++20 "$source_file" -o "$work/w1_limit"

# The value of "key": in battlecore's one-line JSON report.
json_number() { sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p" "$2"; }
# The value of a `key value` line of w1-limit's output.
line_value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

printf '%-6s %14s %14s %8s\n' round w1_limit battlecore ratio
for ((r = 1; r <= rounds; r++)); do
  taskset -c "$cpu" "$work/w1_limit" "$battles" 1 0 > "$work/limit.txt"
  taskset -c "$cpu" "$battlecore" sim --rules deckbuilder --encounter w1 --battles "$battles" --seed 1 --json \
    > "$work/sim.json"
  limit_rate=$(line_value battles_per_s "$work/limit.txt")
  elapsed=$(json_number elapsed_s "$work/sim.json")
  awk -v r="$r" -v l="$limit_rate" -v n="$battles" -v e="$elapsed" \
    'BEGIN { b = n / e; printf "%-6s %14.0f %14.0f %7.2fx\n", r, l, b, l / b }'
done

echo
echo "W1 statistics (the last round; the same seeds give the same battles in every round):"
printf '%-22s %12s %12s\n' "" w1_limit battlecore
for key in win_rate mean_turns mean_decisions mean_hp_left_on_wins; do
  awk -v k="$key" -v a="$(line_value "$key" "$work/limit.txt")" -v b="$(json_number "$key" "$work/sim.json")" \
    'BEGIN { printf "%-22s %12.4f %12.4f\n", k, a, b }'
done
