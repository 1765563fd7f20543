#!/usr/bin/env bash
# Stops the cluster tests/cluster/slurm_up.sh started in directory $1: slurmd, slurmctld and
# munged, by the pids in their pid files, and waits until they are gone.
set -uo pipefail
dir=$1
for daemon in slurmd slurmctld munged; do
    pidfile="$dir/$daemon.pid"
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
done
