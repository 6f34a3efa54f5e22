#!/usr/bin/env bash
# Submits a self-play data run to Slurm: an array job with one `chariot selfplay --shard I/N`
# per task, then (afterok) a merge job that concatenates the shards in order into train.txt and
# runs `chariot tune` on it, writing weights.rs, loss.svg and tune.txt into the run folder.
# See docs/cluster.md.
#
# Usage:
#   tuning/slurm/selfplay.sh RUN_DIR [--games N] [--shards N] [--nodes N | --depth D] [--seed S]
#       [--cpus C] [--merge-cpus C] [--epochs E] [--lr X] [--no-tune] [--openings FILE]
#       [--selfplay-args "WORDS"] [--tune-args "WORDS"] [--chariot PATH]
#       [--sbatch-args "WORDS"] [--merge-sbatch-args "WORDS"]
#   tuning/slurm/selfplay.sh RUN_DIR --resume      # re-run only the shards with no output
#
# Sizes may also come from the environment: GAMES, SHARDS, NODES, DEPTH, SEED, CPUS,
# MERGE_CPUS, EPOCHS, LR, SBATCH_ARGS, MERGE_SBATCH_ARGS. Each task runs
# --threads $SLURM_CPUS_PER_TASK (= --cpus). The output depends only on the games, the seed, the
# search limit and the other selfplay flags: never on the shard count, the CPUs or the machine.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RUN_DIR [options] (see the head of this script)"
run=$(realpath -m "$1")
shift
GAMES=${GAMES:-1000} SHARDS=${SHARDS:-16} NODES=${NODES:-} DEPTH=${DEPTH:-} SEED=${SEED:-1}
CPUS=${CPUS:-1} MERGE_CPUS=${MERGE_CPUS:-} EPOCHS=${EPOCHS:-300} LR=${LR:-1.0} TUNE=1
chariot="$repo_dir/target/release/chariot" openings="" selfplay_words="" tune_words=""
resume=0
while [ $# -gt 0 ]; do
  case "$1" in
    --resume) resume=1; shift; continue ;;
    --no-tune) TUNE=0; shift; continue ;;
  esac
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
    --games) GAMES=$2 ;;
    --shards) SHARDS=$2 ;;
    --nodes) NODES=$2 ;;
    --depth) DEPTH=$2 ;;
    --seed) SEED=$2 ;;
    --cpus) CPUS=$2 ;;
    --merge-cpus) MERGE_CPUS=$2 ;;
    --epochs) EPOCHS=$2 ;;
    --lr) LR=$2 ;;
    --openings) openings=$2 ;;
    --selfplay-args) selfplay_words=$2 ;;
    --tune-args) tune_words=$2 ;;
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
  need_number --shards "$SHARDS"
  need_number --cpus "$CPUS"
  need_number --epochs "$EPOCHS"
  MERGE_CPUS=${MERGE_CPUS:-$CPUS}
  need_number --merge-cpus "$MERGE_CPUS"
  [ "$SHARDS" -le "$GAMES" ] || die "--shards ($SHARDS) must not exceed --games ($GAMES)"
  if [ -n "$NODES" ]; then
    need_number --nodes "$NODES"
    LIMIT=(--nodes "$NODES")
  elif [ -n "$DEPTH" ]; then
    need_number --depth "$DEPTH"
    LIMIT=(--depth "$DEPTH")
  else
    die "give --nodes N or --depth D (a fixed search limit keeps the games deterministic)"
  fi
  mapfile -t SELFPLAY_ARGS < <(words "$selfplay_words")
  mapfile -t TUNE_ARGS < <(words "$tune_words")
  new_run_folder "$run" "$chariot"
  if [ -n "$openings" ]; then
    [ -r "$openings" ] || die "cannot read $openings"
    cp "$openings" "$run/openings.${openings##*.}"
    SELFPLAY_ARGS+=(--openings "$run/openings.${openings##*.}")
  fi
  declare -p GAMES SHARDS SEED LIMIT EPOCHS LR TUNE SELFPLAY_ARGS TUNE_ARGS CPUS MERGE_CPUS \
    > "$run/run.env"
  echo "run folder $run: $GAMES games in $SHARDS shards, ${LIMIT[*]}, seed $SEED"
fi
tasks=$(missing_tasks "$run" "$SHARDS" "parts/part-%05d.txt")
submit_array_and_merge "$run" selfplay "$tasks" "$CPUS" "$MERGE_CPUS"
