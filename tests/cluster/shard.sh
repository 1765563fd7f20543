#!/usr/bin/env bash
# One shard of a match whose shards share directory DIR: the job of an `sbatch --array`
# (INDEX `slurm`: the array task's index) or of GNU parallel (INDEX a number).
#   shard.sh INDEX COUNT DIR QUARTET MATCH-ARGS...
# It writes DIR/shard-I.{json,jsonl,pgn}, checks DIR/STOP between games (the coordinator's
# stop marker), and resumes from its results file when one exists (a requeued or retried
# shard goes on where it stopped). Its process id is in DIR/shard-I.pid.
set -euo pipefail
index=$1 count=$2 dir=$3 quartet=$4
shift 4
[ "$index" = slurm ] && index=$SLURM_ARRAY_TASK_ID
out=$dir/shard-$index
resume=()
[ -e "$out.json" ] && resume=(--resume)
echo $$ > "$out.pid"
exec "$quartet" match "$@" --shard "$index/$count" --results "$out.json" --jsonl "$out.jsonl" \
    --pgnout "$out.pgn" --stop-file "$dir/STOP" --no-progress "${resume[@]}"
