#!/usr/bin/env bash
# Reruns the Ludo strength measurements of tests/ludo_strength.rs (in process, release build,
# one thread) and prints the load average before and after, since the timed part depends on
# how much CPU the machine leaves.
#
# What it measures:
#   1. Loss against the exact 2-piece solution: the engine's mean loss of win probability per
#      decision (best move by the solution minus the engine's move, both valued by the
#      solution) over sampled decision nodes with at least two legal moves, at node budgets
#      and at a fixed time per move; the expert's loss on the same positions for scale.
#   2. Engine against the rule-based expert: duplicate dice (each dice sequence played twice,
#      colours swapped), a node budget per move; score per game with a 95 % interval that
#      counts the pair as the independent sample.
#   3. Nodes to each depth on 18 fixed 4-piece positions (for pruning changes such as Star2).
#   4. Calibration of the evaluation on 4-piece expert-against-expert games.
#
# Usage: scripts/ludo_strength.sh [test-name-filter]   (e.g. "loss_against" to run only 1.)
# Environment (defaults in brackets):
#   LUDO_POSITIONS [1000]  decision nodes sampled for 1.
#   LUDO_BUDGETS [300,1000,3000,10000]  node budgets for 1.
#   LUDO_MOVETIME [100]    ms per move for 1. (0 skips the timed run; 10 ms move overhead
#                          is kept back, as the protocol's default)
#   LUDO_PAIRS [2000]      duplicate pairs for 2.
#   LUDO_NODES [2000]      nodes per move for 2.
#   LUDO_DEPTH [5]         deepest iteration for 3.
#   LUDO_GAMES [4000]      games for 4.
# Expect about 10 minutes for the 2,000 pairs of 2. and a few minutes for 1. on an idle core
# (the 2-piece solve alone takes ~10 s in release).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load before: $(uptime)"
cargo test --release --test ludo_strength -- --ignored --nocapture --test-threads 1 "$@"
echo "load after: $(uptime)"
