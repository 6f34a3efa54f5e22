#!/usr/bin/env bash
# Submits a match (e.g. an SPRT test) to Slurm: an array job whose task I plays
# `chariot match --slice I/N` (a block of game pairs) and writes its games as JSON lines, then
# (afterok) a merge job, `chariot match merge`, that writes summary.txt: W/D/L, Elo, pentanomial
# Elo, LOS and the SPRT LLR exactly as one machine playing the same games prints them.
# See docs/cluster.md.
#
# Usage:
#   tuning/slurm/match.sh RUN_DIR --engine SPEC --engine SPEC (--nodes N | --depth D | --tc TC |
#       --movetime MS) [--games N] [--slices N] [--openings FILE] [--sprt "elo0=0 elo1=5 ..."]
#       [--cpus C] [--match-args "WORDS"] [--chariot PATH]
#       [--sbatch-args "WORDS"] [--merge-sbatch-args "WORDS"]
#   tuning/slurm/match.sh RUN_DIR --resume      # re-run only the slices with no results
#
# Sizes may also come from the environment: GAMES, SLICES, CPUS, SBATCH_ARGS,
# MERGE_SBATCH_ARGS. Each task plays --concurrency $SLURM_CPUS_PER_TASK (= --cpus) games at once.
# `proto=internal` engines play in the run folder's copy of chariot; a `cmd=` engine must be
# at a path every compute node can read. Under --nodes/--depth (single-threaded engines) a
# re-run slice plays the same games; under a clock it plays new ones (equally valid samples).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR [options] (see the head of this script)"
run=$(realpath -m "$1")
shift
GAMES=${GAMES:-1000} SLICES=${SLICES:-16} CPUS=${CPUS:-1}
chariot="$repo_dir/target/release/chariot" openings="" sprt="" match_words="" resume=0
ENGINES=() LIMIT=()
while [ $# -gt 0 ]; do
  if [ "$1" = --resume ]; then resume=1; shift; continue; fi
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
    --engine) ENGINES+=("$2") ;;
    --nodes | --depth | --tc | --movetime) LIMIT=("$1" "$2") ;;
    --games) GAMES=$2 ;;
    --slices) SLICES=$2 ;;
    --openings) openings=$2 ;;
    --sprt) sprt=$2 ;;
    --cpus) CPUS=$2 ;;
    --match-args) match_words=$2 ;;
    --chariot) chariot=$2 ;;
    --sbatch-args) SBATCH_ARGS=$2 ;;
    --merge-sbatch-args) MERGE_SBATCH_ARGS=$2 ;;
    *) die "unknown option $1" ;;
  esac
  shift 2
done

if [ "$resume" = 1 ]; then
  [ -e "$run/run.env" ] || die "$run holds no run to resume"
  # shellcheck disable=SC1091
  source "$run/run.env"
else
  need_number --games "$GAMES"
  need_number --slices "$SLICES"
  need_number --cpus "$CPUS"
  [ ${#ENGINES[@]} -eq 2 ] || die "give exactly two --engine specs"
  [ ${#LIMIT[@]} -eq 2 ] || die "give a move limit: --nodes, --depth, --tc or --movetime"
  [ "$SLICES" -le $(((GAMES + 1) / 2)) ] || die "--slices ($SLICES) exceeds the game pairs"
  mapfile -t MATCH_ARGS < <(words "$match_words")
  [ -z "$sprt" ] || MATCH_ARGS+=(--sprt "$sprt")
  new_run_folder "$run" "$chariot"
  if [ -n "$openings" ]; then
    [ -r "$openings" ] || die "cannot read $openings"
    cp "$openings" "$run/openings.${openings##*.}"
    MATCH_ARGS+=(--openings "$run/openings.${openings##*.}")
  fi
  declare -p GAMES SLICES ENGINES LIMIT MATCH_ARGS CPUS > "$run/run.env"
  echo "run folder $run: $GAMES games in $SLICES slices, ${LIMIT[*]}"
fi
tasks=$(missing_tasks "$run" "$SLICES" "parts/slice-%05d.jsonl")
submit_array_and_merge "$run" match "$tasks" "$CPUS" 1
