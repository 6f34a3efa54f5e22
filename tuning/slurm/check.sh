#!/usr/bin/env bash
# End-to-end check of the Slurm workloads on one machine, with a real Slurm:
#   1-2. local-cluster.sh start: installs slurm-wlm and munge (Debian packages) if missing,
#      writes a private single-node configuration (this host is controller and compute node,
#      select/cons_tres, CPUs from nproc, memory from /proc/meminfo) and starts its own
#      munged, slurmctld and slurmd on it (no system configuration or service is touched);
#   3. submits a 4-task self-play array job + merge/tune job (tuning/slurm/selfplay.sh) and a
#      4-task match array job + merge job (tuning/slurm/match.sh), and waits for them;
#   4. checks that the merged self-play data is byte-identical to one machine's
#      `chariot selfplay` with the same flags, that a deleted shard re-run alone (--resume)
#      gives the same bytes, and that the merged match summary equals one machine's
#      `chariot match` over the same games (fixed nodes, so the games are deterministic);
#   5. stops the daemons it started (only those) and exits non-zero on any difference.
# Needs root (daemons, apt). Usage: bash tuning/slurm/check.sh   (CHARIOT=path to skip the build,
# KEEP=1 to keep the work folder, SLURM_CHECK_PORT=N for the controller port, N+1 for slurmd).
# It is not part of `cargo test`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
say() { echo "[check] $*"; }
fail() {
  echo "[check] FAIL: $*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "run as root (it installs packages and starts daemons)"
if [ -n "${CHARIOT:-}" ]; then
  chariot=$CHARIOT
else
  say "building chariot (cargo build --release)"
  (cd "$repo" && cargo build --release --quiet)
  chariot=$repo/target/release/chariot
fi
[ -x "$chariot" ] || fail "no chariot binary at $chariot"

work=$(mktemp -d /tmp/chariot-slurm-check.XXXXXX)
chmod 755 "$work"
# shellcheck disable=SC2317 # called by the EXIT trap
finish() {
  bash "$here/local-cluster.sh" stop "$work/slurm"
  if [ "${KEEP:-0}" = 1 ]; then say "work folder kept: $work"; else rm -rf "$work"; fi
}
trap finish EXIT
bash "$here/local-cluster.sh" start "$work/slurm"
export SLURM_CONF=$work/slurm/slurm.conf
cpus=$(nproc)

# wait_jobs ID...: waits with squeue until the jobs leave the queue, then checks that each
# (every array task included) COMPLETED: with sacct if accounting is on, else scontrol.
wait_jobs() {
  local ids
  ids=$(IFS=,; echo "$*")
  local waited=0
  while [ -n "$(squeue -h -j "$ids" 2> /dev/null)" ]; do
    sleep 2
    waited=$((waited + 2))
    [ $waited -lt 1200 ] || fail "jobs $ids still queued after 20 minutes"
  done
  local states
  if sacct -n -X -j "$ids" -o JobID,State > /dev/null 2>&1 \
    && [ -n "$(sacct -n -X -j "$ids" -o State 2> /dev/null)" ]; then
    states=$(sacct -n -X -j "$ids" -o JobID%20,State)
  else
    states=$(for id in "$@"; do
      scontrol show job -o "$id" | while read -r line; do
        local job task state
        job=$(grep -o 'ArrayJobId=[0-9]*' <<< "$line" | cut -d= -f2)
        task=$(grep -o 'ArrayTaskId=[0-9]*' <<< "$line" | cut -d= -f2)
        state=$(grep -o 'JobState=[A-Z_]*' <<< "$line" | cut -d= -f2)
        if [ -n "$job" ]; then echo "job ${job}_$task $state"; else echo "job $id $state"; fi
      done
    done)
  fi
  while read -r line; do say "  $line"; done <<< "$states"
  if echo "$states" | grep -vq COMPLETED; then fail "a job did not complete"; fi
}

# --- 1. self-play: 4 shards + merge + tune ------------------------------------------------
sp=$work/selfplay
sp_flags=(--games 20 --nodes 1000 --seed 11)
say "submitting self-play: ${sp_flags[*]} in 4 shards, then merge + tune"
CPUS=1 bash "$here/selfplay.sh" "$sp" "${sp_flags[@]}" --shards 4 --epochs 20 \
  --selfplay-args "--max-plies 300" --chariot "$chariot" | sed 's/^/[check]   /'
# --- 2. match: 4 slices + merge -----------------------------------------------------------
mt=$work/match
engines=(--engine "proto=internal name=Strong option.Hash=1"
  --engine "proto=internal name=Weak option.Hash=1 nodes=1024")
mt_flags=(--nodes 2048 --games 16 --openings "$repo/tuning/openings.epd")
say "submitting a match: 16 games (8 pairs) in 4 slices, then merge"
CPUS=1 bash "$here/match.sh" "$mt" "${engines[@]}" "${mt_flags[@]}" --slices 4 \
  --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" --match-args "--max-plies 300" \
  --chariot "$chariot" | sed 's/^/[check]   /'

read -ra jobs <<< "$(cat "$sp/jobs.txt" "$mt/jobs.txt" | tr '\n' ' ')"
say "waiting for jobs ${jobs[*]} (squeue)"
wait_jobs "${jobs[@]}"

status=0
# Self-play: the merged data against one machine's run with the same flags.
"$chariot" selfplay "${sp_flags[@]}" --max-plies 300 --threads "$cpus" \
  --out "$work/selfplay-one-machine.txt" 2> /dev/null
if cmp -s "$sp/train.txt" "$work/selfplay-one-machine.txt"; then
  say "OK   self-play: merged train.txt ($(wc -l < "$sp/train.txt") positions," \
    "$(cksum < "$sp/train.txt" | cut -d' ' -f1)) is byte-identical to one machine's run"
else
  say "DIFF self-play: merged train.txt differs from one machine's run"
  status=1
fi
if [ -s "$sp/weights.rs" ] && grep -q "^positions" "$sp/tune.txt"; then
  say "OK   chariot tune ran on the merged data: $(tail -1 "$sp/tune.txt")"
else
  say "DIFF chariot tune wrote no weights"
  status=1
fi

# A lost shard re-runs alone and gives the same bytes.
cp "$sp/parts/part-00002.txt" "$work/part-00002.before"
cp "$sp/train.txt" "$work/train.before"
rm "$sp/parts/part-00002.txt" "$sp/train.txt"
say "deleted shard 2 and train.txt; resubmitting with --resume"
bash "$here/selfplay.sh" "$sp" --resume | sed 's/^/[check]   /'
read -ra jobs <<< "$(tail -1 "$sp/jobs.txt")"
wait_jobs "${jobs[@]}"
if cmp -s "$sp/parts/part-00002.txt" "$work/part-00002.before" \
  && cmp -s "$sp/train.txt" "$work/train.before"; then
  say "OK   the re-run shard 2 and the re-merged train.txt are identical to the first run's"
else
  say "DIFF the re-run shard 2 or the re-merged train.txt differs from the first run's"
  status=1
fi

# Match: the merged summary against one machine's run over the same games.
"$chariot" match "${engines[@]}" "${mt_flags[@]}" --max-plies 300 \
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --concurrency "$cpus" \
  > "$work/match-one-machine.txt" 2> /dev/null
untimed() { sed -E 's/ played in [0-9.]+ s/ played in (time) s/' "$1"; }
echo "[check] merged match summary (summary.txt):"
sed 's/^/[check]   /' "$mt/summary.txt"
if ! grep -q "^Games: 16 of 16 " "$work/match-one-machine.txt"; then
  say "DIFF one machine did not play all 16 games (the SPRT stopped it?)"
  status=1
elif diff <(untimed "$mt/summary.txt") <(untimed "$work/match-one-machine.txt"); then
  say "OK   match: the merged summary equals one machine's (all but the wall time)"
else
  say "DIFF match: the merged summary differs from one machine's (diff above)"
  status=1
fi

if [ $status = 0 ]; then say "PASS"; else say "FAIL"; fi
exit $status
