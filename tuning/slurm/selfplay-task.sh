#!/usr/bin/env bash
# One shard of a self-play run (submitted by tuning/slurm/selfplay.sh as an array job):
# `chariot selfplay --shard $SLURM_ARRAY_TASK_ID/$SHARDS` with the run's settings, written to
# parts/part-IIIII.txt through a temporary file, so a part that exists is complete. A shard
# whose part exists is skipped; a re-run of a lost shard writes the same bytes.
#SBATCH --job-name=chariot-selfplay
set -euo pipefail
run=${1:?usage: selfplay-task.sh RUN_DIR}
# shellcheck disable=SC1091
source "$run/run.env"
i=${SLURM_ARRAY_TASK_ID:?not an array task}
part=$(printf '%s/parts/part-%05d.txt' "$run" "$i")
if [ -e "$part" ]; then
  echo "shard $i/$SHARDS: $part exists, nothing to do"
  exit 0
fi
threads=${SLURM_CPUS_PER_TASK:-1}
echo "shard $i/$SHARDS on $(hostname) with $threads threads"
"$run/chariot" selfplay --games "$GAMES" "${LIMIT[@]}" --seed "$SEED" --threads "$threads" \
  --shard "$i/$SHARDS" "${SELFPLAY_ARGS[@]}" --out "$part.tmp"
mv "$part.tmp" "$part"
