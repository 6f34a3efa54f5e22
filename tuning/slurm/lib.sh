# shellcheck shell=bash
# Helpers shared by the submit scripts (selfplay.sh, match.sh); sourced, not run.
# The job scripts (*-task.sh, *-merge.sh) do not use it: Slurm runs a copy of a job script, so
# they read everything from the run folder's run.env.

slurm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this file
repo_dir=$(cd "$slurm_dir/../.." && pwd)

die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# need_number NAME VALUE: VALUE must be a positive integer.
need_number() {
  [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive integer, not '$2'"
}

# words STRING: prints the words of STRING one per line (shell quoting honoured, no expansion).
words() {
  [ -n "$1" ] || return 0
  local -a w
  eval "w=($1)" || die "cannot split '$1' into words"
  printf '%s\n' "${w[@]}"
}

# new_run_folder DIR CHARIOT: creates DIR (which must not hold a run yet) with logs/ and parts/,
# and copies the chariot binary into it, so every task of the run plays with the same build.
new_run_folder() {
  local run=$1 chariot=$2
  [ -e "$run/run.env" ] && die "$run already holds a run (use --resume to re-run its missing tasks)"
  [ -x "$chariot" ] || die "no chariot binary at $chariot (build it: cargo build --release, or give --chariot PATH)"
  mkdir -p "$run/logs" "$run/parts"
  cp "$chariot" "$run/chariot"
}

# missing_tasks RUN COUNT PATTERN: the task indices 0..COUNT-1 whose output (printf PATTERN with
# the index, relative to RUN) does not exist, as an sbatch --array list ("0-15", "2,7-9", "").
missing_tasks() {
  local run=$1 count=$2 pattern=$3 i first=-1 list=()
  for ((i = 0; i <= count; i++)); do
    # shellcheck disable=SC2059
    if [ "$i" -lt "$count" ] && [ ! -e "$run/$(printf "$pattern" "$i")" ]; then
      [ "$first" -ge 0 ] || first=$i
    elif [ "$first" -ge 0 ]; then
      if [ "$first" -eq $((i - 1)) ]; then list+=("$first"); else list+=("$first-$((i - 1))"); fi
      first=-1
    fi
  done
  local IFS=,
  echo "${list[*]}"
}

# submit_array_and_merge RUN KIND TASKS CPUS MERGE_CPUS: submits KIND-task.sh as an array over
# the comma-separated TASKS (none: skipped) with CPUS per task, and KIND-merge.sh after it
# (afterok; cancelled if a task fails) with MERGE_CPUS, each with the extra sbatch words of
# SBATCH_ARGS / MERGE_SBATCH_ARGS; prints the job ids and appends them to RUN/jobs.txt.
submit_array_and_merge() {
  local run=$1 kind=$2 tasks=$3 cpus=$4 merge_cpus=$5 array_job="" dep=()
  local -a extra merge_extra
  mapfile -t extra < <(words "${SBATCH_ARGS:-}")
  mapfile -t merge_extra < <(words "${MERGE_SBATCH_ARGS:-}")
  if [ -n "$tasks" ]; then
    array_job=$(sbatch --parsable --job-name="chariot-$kind" --array="$tasks" \
      --cpus-per-task="$cpus" --chdir="$run" --output="$run/logs/$kind-%A_%a.out" \
      "${extra[@]}" "$slurm_dir/$kind-task.sh" "$run") || die "sbatch of the $kind array failed"
    array_job=${array_job%%;*}
    dep=(--dependency="afterok:$array_job" --kill-on-invalid-dep=yes)
    echo "array job $array_job: $kind tasks $tasks ($cpus CPUs each)"
  else
    echo "no $kind task left to run"
  fi
  local merge_job
  merge_job=$(sbatch --parsable --job-name="chariot-$kind-merge" "${dep[@]}" \
    --cpus-per-task="$merge_cpus" --chdir="$run" --output="$run/logs/$kind-merge-%j.out" \
    "${merge_extra[@]}" "$slurm_dir/$kind-merge.sh" "$run") || die "sbatch of the $kind merge failed"
  merge_job=${merge_job%%;*}
  echo "merge job $merge_job: after the array succeeds"
  echo "${array_job:-} $merge_job" >> "$run/jobs.txt"
}
