#!/usr/bin/env bash
# scripts/ladder.sh: the strength ladder of Quartet's players, in every game.
#
# For each game it plays three matches between neighbouring players,
#     search vs mcts,  mcts vs greedy,  greedy vs random,
# with `quartet match` (pairs of games with colours swapped from seeded random openings,
# every move checked by the referee) and prints one table, a row per match:
#
#     game        pairing          games  W-D-L        score   Elo (pairs, 95 %)   time
#     duell       search-mcts         60  52-0-8      86.7 %   +330 ± 129           41 s
#
# How to read it:
# - A row speaks for the first-named player: W-D-L are its wins, draws and losses, score is
#   its points per game (a win 1, a draw 1/2).
# - Elo is the logistic Elo difference of the first player over the second, estimated from
#   the pairs (pentanomial, as fastchess does), with the half-width of its 95 % interval.
#   "± inf" means the interval reaches a 0 % or 100 % score, where Elo is unbounded. A
#   perfect score has no interval at all: the row shows ">= X", the one-sided 95 % lower
#   bound on the Elo difference that winning every game supports ("<= -X" for losing
#   every game).
# - Positive Elo on every row means the ladder is in order: each player beats the next.
#   Rows do not add up exactly (Elo is not transitive between different kinds of player).
# - With --nodes (the default) each move gets the same budget: search nodes for `search`,
#   playouts for `mcts`; greedy and random ignore it. The rows compare players at equal
#   effort, not equal time. With --movetime MS they compare at equal time per move; then
#   the machine's load matters, so the header and footer print the load average.
# - Few games give wide intervals (about ±90 Elo at 60 games for an even match). The
#   records, results and full reports stay in the --out directory: `quartet replay --game
#   G DIR/G-A-B.pgn` re-checks a record file, DIR/G-A-B.txt is the match's full report.
#
# Usage: scripts/ladder.sh [--games N] [--nodes N | --movetime MS] [--concurrency K]
#                          [--seed S] [--openings SPEC] [--game G ...] [--out DIR]
#                          [--quartet PATH]
# Defaults: 60 games per match, --nodes 1000, concurrency 2, seed 1, openings random:4,
# every game, a fresh temporary directory, target/release/quartet (built if missing).
# The defaults take a few minutes on an idle 2-core machine, 10-20 on a loaded one.

set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=60
limit=(--nodes 1000)
concurrency=2
seed=1
openings=random:4
game_list=()
out=""
quartet="$root/target/release/quartet"

usage() {
    sed -n '/^# Usage:/,/^# every game/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case "$1" in
        --games) games=$2 ;;
        --nodes) limit=(--nodes "$2") ;;
        --movetime) limit=(--movetime "$2") ;;
        --concurrency) concurrency=$2 ;;
        --seed) seed=$2 ;;
        --openings) openings=$2 ;;
        --game) game_list+=("$2") ;;
        --out) out=$2 ;;
        --quartet) quartet=$2 ;;
        *) usage ;;
    esac
    shift 2
done
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/quartet-ladder.XXXXXX")
mkdir -p "$out"
if [ ! -x "$quartet" ]; then
    echo "building $quartet ..." >&2
    (cd "$root" && cargo build --release --quiet)
fi
# Every game the binary lists, unless --game chose some.
[ ${#game_list[@]} -gt 0 ] || mapfile -t game_list < <("$quartet" games --names)

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }

# Prints one table row from a match's report: W-D-L, score, Elo.
row() {
    awk -v game="$1" -v pairing="$2" -v secs="$3" '
        /^Games:/ {
            gsub(/,/, "")
            n = $2; w = $6; l = $8; d = $10
            score = $13; sub(/\(/, "", score)
        }
        /^Elo \(games\):/ && elo == "" { elo = $3; err = $5 }
        /^Elo \(pairs\):/ { elo = $3; err = $5 }
        /^Elo (>=|<=) / { bound = sprintf("%s %+.0f", $2, $3) }
        END {
            if (n == "") { printf "%-11s %-16s %s\n", game, pairing, "no result (see the report)"; exit }
            if (bound != "") text = bound
            else if (elo == "inf" || elo == "-inf" || elo == "n/a") text = elo
            else if (err == "inf" || err == "n/a") text = sprintf("%+.0f ± %s", elo, err)
            else text = sprintf("%+.0f ± %.0f", elo, err)
            printf "%-11s %-16s %5d  %-11s %6.1f %%   %-19s %4d s\n", \
                game, pairing, n, w "-" d "-" l, score, text, secs
        }'
}

echo "Quartet ladder: ${limit[*]}, $games games per match, concurrency $concurrency," \
    "seed $seed, openings $openings; load $(load); files in $out"
printf "%-11s %-16s %5s  %-11s %8s   %-19s %6s\n" \
    game pairing games W-D-L score "Elo (pairs, 95 %)" time
started=$SECONDS
for game in "${game_list[@]}"; do
    for pairing in search-mcts mcts-greedy greedy-random; do
        a=${pairing%-*}
        b=${pairing#*-}
        base="$out/$game-$pairing"
        t0=$SECONDS
        status=0
        "$quartet" match --game "$game" \
            --engine "cmd=$quartet" "name=$a" "args=--player $a" \
            --engine "cmd=$quartet" "name=$b" "args=--player $b" \
            --games "$games" "${limit[@]}" --concurrency "$concurrency" --seed "$seed" \
            --openings "$openings" --no-progress \
            --pgnout "$base.pgn" --results "$base.json" >"$base.txt" 2>&1 || status=$?
        row "$game" "$pairing" $((SECONDS - t0)) <"$base.txt"
        [ "$status" -eq 0 ] || echo "    (quartet match exited with $status: see $base.txt)"
    done
done
echo "total $((SECONDS - started)) s; load $(load)"
