#!/usr/bin/env bash
# The training runs of a profile-guided build (make pgo): BINARY, built with
# BATTLECORE_PGO=generate, plays the bundled content of all three rule sets with each policy,
# and its counters go to the build's profile directory. Every run uses one thread (the counters
# are not atomic) and seed 7.
set -euo pipefail
if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "usage: $0 BINARY   (the battlecore CLI of a BATTLECORE_PGO=generate build)" >&2
  exit 2
fi
bc=$1
run() { "$bc" sim --threads 1 --seed 7 "$@" >/dev/null; }
run --rules deckbuilder --battles 100000
run --rules deckbuilder --encounter sludge_pair --battles 30000
run --rules deckbuilder --policy greedy --battles 3000
run --rules deckbuilder --policy mcts --mcts-iterations 50 --battles 30
run --rules clash --battles 50000
run --rules clash --policy greedy --battles 3000
run --rules clash --policy mcts --mcts-iterations 50 --battles 20
run --rules party --battles 20000
run --rules party --policy greedy --battles 2000
run --rules party --policy mcts --mcts-iterations 50 --battles 10
echo "pgo-train: profile written by $bc"
