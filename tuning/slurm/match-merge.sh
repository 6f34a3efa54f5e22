#!/usr/bin/env bash
# The end of a match run (submitted by tuning/slurm/match.sh after the array job): merges the
# slices' results into summary.txt with `chariot match merge` (fails, naming them, if slices
# are missing), and concatenates the slices' PGN in order into games.pgn.
#SBATCH --job-name=chariot-match-merge
set -euo pipefail
run=${1:?usage: match-merge.sh RUN_DIR}
# shellcheck disable=SC1091
source "$run/run.env"
files=() pgns=()
for ((i = 0; i < SLICES; i++)); do
  out=$(printf '%s/parts/slice-%05d' "$run" "$i")
  [ -e "$out.jsonl" ] || continue
  files+=("$out.jsonl")
  pgns+=("$out.pgn")
done
[ ${#files[@]} -gt 0 ] || { echo "no slice has results yet" >&2; exit 1; }
if ! "$run/chariot" match merge "${files[@]}" > "$run/summary.txt.tmp"; then
  echo "re-run the missing slices with: tuning/slurm/match.sh $run --resume" >&2
  exit 1
fi
mv "$run/summary.txt.tmp" "$run/summary.txt"
cat "${pgns[@]}" > "$run/games.pgn"
cat "$run/summary.txt"
