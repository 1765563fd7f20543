#!/usr/bin/env bash
# One SPRT over many machines (issue 38 §7), on a real scheduler:
#   tests/cluster/sprt_watch.sh slurm     a single-node Slurm cluster started here and
#                                         stopped at the end (tests/cluster/slurm_up.sh)
#   tests/cluster/sprt_watch.sh parallel  GNU parallel
# Three checks, each on shards sharing one directory (tests/cluster/shard.sh):
#  1. a 4-shard SPRT with the coordinator (quartet match watch): it decides once, and no
#     shard begins more than one game after the decision; the merge runs after every
#     shard ended (Slurm: a job with --dependency=afterany on the array);
#  2. a shard killed mid-match and requeued (Slurm: scontrol requeue; parallel: SIGKILL and
#     --retries) resumes: each of its games is played once;
#  3. at fixed depth, the coordinator's merged report equals an unsharded run's.
# QUARTET names the binary (default target/debug/quartet). Games are tiny (depth 1 and 2).
set -euo pipefail
mode=${1:?usage: sprt_watch.sh slurm|parallel}
here=$(cd "$(dirname "$0")" && pwd)
quartet=$(realpath "${QUARTET:-$here/../../target/debug/quartet}")
work=$(mktemp -d)
cluster=$work/cluster

cleanup() {
    if [ "$mode" = slurm ]; then
        scancel --user="$(id -un)" 2>/dev/null || true
        "$here/slurm_down.sh" "$cluster"
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ "$mode" = slurm ]; then
    eval "$("$here/slurm_up.sh" "$cluster")"
fi

# Waits (at most $2 seconds) until Slurm job $1 has left the queue.
wait_job() {
    for _ in $(seq 1 "$2"); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    echo "job $1 still queued after $2 s" >&2
    squeue >&2
    return 1
}

# Starts COUNT shards of a match writing into DIR, in the background (parallel) or as an
# array job (Slurm): shards DIR COUNT MATCH-ARGS... ; `started` is what to wait for.
shards() {
    local dir=$1 count=$2
    shift 2
    mkdir -p "$dir"
    if [ "$mode" = slurm ]; then
        started=$(sbatch --parsable --array=1-"$count" --requeue --open-mode=append \
            -o "$dir/shard-%a.out" "$here/shard.sh" slurm "$count" "$dir" "$quartet" "$@")
    else
        parallel -j "$count" --retries 3 \
            "$here/shard.sh {} $count $dir $quartet $(printf '%q ' "$@") >> $dir/shard-{}.out 2>&1" \
            ::: $(seq 1 "$count") &
        started=$!
    fi
}

# Waits for the shards started last, then merges them (Slurm: a job after any end). Not in
# a pipeline: the shell that started the shards must be the one that waits for them.
merge_after() {
    local dir=$1
    if [ "$mode" = slurm ]; then
        local merge
        merge=$(sbatch --parsable --dependency=afterany:"$started" -o "$dir/merge.out" \
            --wrap "$quartet match merge $dir/shard-*.json --results $dir/merged.json")
        wait_job "$merge" 300
    else
        wait "$started"
        "$quartet" match merge "$dir"/shard-*.json --results "$dir/merged.json" > "$dir/merge.out"
    fi
    cat "$dir/merge.out"
}

# The coordinator, as a job of its own (Slurm) or in the foreground.
coordinate() {
    local dir=$1
    shift
    if [ "$mode" = slurm ]; then
        local job
        job=$(sbatch --parsable -o "$dir/watch.out" \
            --wrap "$quartet match watch $dir --poll-ms 100 $*")
        wait_job "$job" 300
    else
        "$quartet" match watch "$dir" --poll-ms 100 "$@" > "$dir/watch.out"
    fi
    cat "$dir/watch.out"
}

duell=(--game duell --engine "cmd=$quartet" name=greedy "args=--player greedy"
    --engine "cmd=$quartet" name=random "args=--player random")

echo "== 1. a 4-shard SPRT with one coordinator ($mode)"
d=$work/sprt
shards "$d" 4 "${duell[@]}" --depth 1 --games 2000 --seed 3
coordinate "$d" --sprt elo0=0 elo1=100 alpha=0.05 beta=0.05 | tail -3
merge_after "$d" > "$d/merge.log"
tail -2 "$d/merge.log"
grep -q "Decided once for 4 shards" "$d/watch.out"
python3 "$here/check.py" stopped "$d"

echo "== 2. a shard killed mid-match and requeued resumes ($mode)"
d=$work/requeue
shards "$d" 2 --game duell --engine "cmd=$quartet" name=a --engine "cmd=$quartet" name=b \
    --depth 3 --games 60 --seed 4
for _ in $(seq 1 600); do
    [ -s "$d/shard-1.jsonl" ] && [ "$(wc -l < "$d/shard-1.jsonl")" -ge 2 ] && break
    sleep 0.1
done
[ "$(wc -l < "$d/shard-1.jsonl")" -ge 2 ]
if [ "$mode" = slurm ]; then
    scontrol requeue "${started}_1"
else
    kill -KILL "$(cat "$d/shard-1.pid")"
fi
merge_after "$d" > "$d/merge.log"
tail -1 "$d/merge.log"
python3 "$here/check.py" resumed "$d" 1

echo "== 3. at fixed depth, the merged report equals the unsharded run's ($mode)"
random=(--game duell --engine "cmd=$quartet" name=r1 "args=--player random"
    --engine "cmd=$quartet" name=r2 "args=--player random" --depth 2 --games 24 --seed 9)
d=$work/fixed
shards "$d" 4 "${random[@]}"
coordinate "$d" --sprt elo0=-5 elo1=5 alpha=0.01 beta=0.01 --results "$work/watched.json" \
    | tail -1
merge_after "$d" > /dev/null
"$quartet" match "${random[@]}" --results "$work/whole.json" --no-progress > /dev/null
python3 "$here/check.py" same "$work/watched.json" "$work/whole.json"
python3 "$here/check.py" same "$d/merged.json" "$work/whole.json"
echo "sprt_watch.sh $mode: passed"
