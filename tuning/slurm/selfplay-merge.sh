#!/usr/bin/env bash
# The end of a self-play run (submitted by tuning/slurm/selfplay.sh after the array job):
# concatenates parts/part-*.txt in shard order into train.txt (byte for byte what one machine
# writes for the same flags), then runs `chariot tune` on it with the run's settings; the
# weights go to weights.rs in the run folder, never into the source tree.
#SBATCH --job-name=chariot-selfplay-merge
set -euo pipefail
run=${1:?usage: selfplay-merge.sh RUN_DIR}
# shellcheck disable=SC1091
source "$run/run.env"
parts=() missing=()
for ((i = 0; i < SHARDS; i++)); do
  part=$(printf '%s/parts/part-%05d.txt' "$run" "$i")
  if [ -e "$part" ]; then parts+=("$part"); else missing+=("$i"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing shards: ${missing[*]}; re-run them with: tuning/slurm/selfplay.sh $run --resume" >&2
  exit 1
fi
cat "${parts[@]}" > "$run/train.txt.tmp"
mv "$run/train.txt.tmp" "$run/train.txt"
echo "train.txt: $(wc -l < "$run/train.txt") positions from $SHARDS shards"
[ "$TUNE" = 1 ] || exit 0
export RAYON_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}
"$run/chariot" tune --data "$run/train.txt" --epochs "$EPOCHS" --lr "$LR" "${TUNE_ARGS[@]}" \
  --out "$run/weights.rs.tmp" --svg "$run/loss.svg" > "$run/tune.txt.tmp"
mv "$run/weights.rs.tmp" "$run/weights.rs"
mv "$run/tune.txt.tmp" "$run/tune.txt"
cat "$run/tune.txt"
