#!/usr/bin/env bash
# One slice of a match (submitted by tuning/slurm/match.sh as an array job):
# `chariot match --slice $SLURM_ARRAY_TASK_ID/$SLICES` with the run's settings; its games go to
# parts/slice-IIIII.jsonl (and .pgn) through temporary files, so a results file that exists is
# complete. A slice whose results exist is skipped; a slice whose task was killed part-way
# continues from its temporary files (`chariot match --resume`) when it runs again; so does one
# that `--stop-after` (in --match-args) ended with games left (exit status 3, files kept).
#SBATCH --job-name=chariot-match
set -euo pipefail
run=${1:?usage: match-task.sh RUN_DIR}
# shellcheck disable=SC1091
source "$run/run.env"
i=${SLURM_ARRAY_TASK_ID:?not an array task}
out=$(printf '%s/parts/slice-%05d' "$run" "$i")
if [ -e "$out.jsonl" ]; then
  echo "slice $i/$SLICES: $out.jsonl exists, nothing to do"
  exit 0
fi
threads=${SLURM_CPUS_PER_TASK:-1}
echo "slice $i/$SLICES on $(hostname), $threads games at once"
"$run/chariot" match --engine "${ENGINES[0]}" --engine "${ENGINES[1]}" "${LIMIT[@]}" \
  --games "$GAMES" --slice "$i/$SLICES" --concurrency "$threads" "${MATCH_ARGS[@]}" \
  --results "$out.jsonl.tmp" --pgn "$out.pgn.tmp" --resume
mv "$out.pgn.tmp" "$out.pgn"
mv "$out.jsonl.tmp" "$out.jsonl"
