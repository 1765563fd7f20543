#!/usr/bin/env bash
# Starts a single-node Slurm cluster in directory $1 (created if missing): a munge key, munged,
# a slurm.conf naming this machine's real hostname, slurmctld and slurmd, all with their
# state, sockets, logs and pid files inside $1. Prints the line to eval for the clients
# (SLURM_CONF=...). Stop it with tests/cluster/slurm_down.sh $1. Runs as root (CI) or as a
# user who may start the daemons; needs Debian's slurm-wlm and munge.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool"
chmod 0700 "$dir"
# Ports above the usual ones, so a cluster already on the machine is left alone.
port=$((17000 + RANDOM % 2000))
mungekey --create --keyfile="$dir/munge.key" --force
chmod 0400 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge.seed"
user=$(id -un)
cat > "$dir/slurm.conf" <<CONF
ClusterName=quartetci
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=sched_interval=1
ReturnToService=2
JobRequeue=1
# A requeued job may start again at once (the default holds it for a while).
MinJobAge=300
# The node offers more CPUs than it has, so the test's four shards run at once on a CI
# machine of two cores (their games are tiny).
SlurmdParameters=config_overrides
NodeName=$host CPUs=8 RealMemory=1000 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$dir/slurm.conf" -i
slurmd -f "$dir/slurm.conf"
for _ in $(seq 1 60); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
        echo "export SLURM_CONF=$dir/slurm.conf"
        exit 0
    fi
    sleep 1
done
echo "slurm did not come up; see $dir/*.log" >&2
sinfo >&2 || true
exit 1
