#!/usr/bin/env bash
# Submits an SPSA tuning run of the search parameters to Slurm: one job on one node that runs
# `chariot spsa` with all its CPUs (--threads $SLURM_CPUS_PER_TASK game pairs at once), writing
# state.txt, history.csv and spsa.svg into RUN_DIR/spsa. See docs/cluster.md.
#
# SPSA is sequential (each iteration starts from the parameters the last one left), so the run
# is one job, not an array: more CPUs mean more game pairs per iteration (--pairs). The state is
# rewritten after every iteration; a job that is lost, pre-empted or hits its time limit is
# resubmitted with --resume and continues from the last finished iteration.
#
# Usage:
#   tuning/slurm/spsa.sh RUN_DIR --iterations N [--pairs P] (--nodes N | --tc BASE+INC)
#       [--params A,B,...] [--cpus C] [--openings FILE] [--seed S] [--spsa-args "WORDS"]
#       [--chariot PATH] [--sbatch-args "WORDS"]
#   tuning/slurm/spsa.sh RUN_DIR --resume      # continue a stopped run
#
# Sizes may also come from the environment: ITERATIONS, PAIRS, NODES, TC, PARAMS, CPUS, SEED,
# SBATCH_ARGS. The chariot binary must be a `cargo build --release --features tune` build (the
# only one whose search parameters can change); the default is target/release/chariot.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR [options] (see the head of this script)"
run=$(realpath -m "$1")
shift
ITERATIONS=${ITERATIONS:-} PAIRS=${PAIRS:-} NODES=${NODES:-} TC=${TC:-} PARAMS=${PARAMS:-}
CPUS=${CPUS:-1} SEED=${SEED:-1}
chariot="$repo_dir/target/release/chariot" openings="$repo_dir/tuning/openings-wide.epd"
spsa_words="" resume=0
while [ $# -gt 0 ]; do
  case "$1" in
    --resume) resume=1; shift; continue ;;
  esac
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
    --iterations) ITERATIONS=$2 ;;
    --pairs) PAIRS=$2 ;;
    --nodes) NODES=$2 ;;
    --tc) TC=$2 ;;
    --params) PARAMS=$2 ;;
    --cpus) CPUS=$2 ;;
    --seed) SEED=$2 ;;
    --openings) openings=$2 ;;
    --spsa-args) spsa_words=$2 ;;
    --chariot) chariot=$2 ;;
    --sbatch-args) SBATCH_ARGS=$2 ;;
    *) die "unknown option $1" ;;
  esac
  shift 2
done

if [ "$resume" = 1 ]; then
  [ -e "$run/run.env" ] || die "$run holds no run to resume"
  [ -e "$run/spsa/state.txt" ] || die "$run/spsa/state.txt does not exist yet: nothing to resume"
  echo "resuming $(sed -n 's/^iteration /iteration /p' "$run/spsa/state.txt" | head -n 1)"
else
  need_number --iterations "$ITERATIONS"
  need_number --cpus "$CPUS"
  PAIRS=${PAIRS:-$CPUS}
  need_number --pairs "$PAIRS"
  need_number --seed "$SEED"
  if [ -n "$NODES" ] && [ -z "$TC" ]; then
    need_number --nodes "$NODES"
    LIMIT=(--nodes "$NODES")
  elif [ -n "$TC" ] && [ -z "$NODES" ]; then
    LIMIT=(--tc "$TC")
  else
    die "give exactly one of --nodes N or --tc BASE+INC"
  fi
  [ -r "$openings" ] || die "cannot read $openings"
  # A build with fixed parameters lists none of them as options; refuse it before queueing.
  printf 'uci\nquit\n' | "$chariot" 2> /dev/null | grep -q '^option name LMR_BASE ' \
    || die "$chariot is not a --features tune build (cargo build --release --features tune)"
  mapfile -t SPSA_ARGS < <(words "$spsa_words")
  [ -z "$PARAMS" ] || SPSA_ARGS+=(--params "$PARAMS")
  new_run_folder "$run" "$chariot"
  cp "$openings" "$run/openings.${openings##*.}"
  OPENINGS="$run/openings.${openings##*.}"
  declare -p ITERATIONS PAIRS LIMIT SEED OPENINGS SPSA_ARGS CPUS > "$run/run.env"
  echo "run folder $run: $ITERATIONS iterations of $PAIRS pairs, ${LIMIT[*]}, seed $SEED"
fi
# shellcheck disable=SC1091
source "$run/run.env"
mapfile -t extra < <(words "${SBATCH_ARGS:-}")
job=$(sbatch --parsable --job-name=chariot-spsa --cpus-per-task="$CPUS" --chdir="$run" \
  --output="$run/logs/spsa-%j.out" "${extra[@]}" "$slurm_dir/spsa-task.sh" "$run") \
  || die "sbatch of the spsa job failed"
job=${job%%;*}
echo "spsa job $job ($CPUS CPUs)"
echo "$job" >> "$run/jobs.txt"
