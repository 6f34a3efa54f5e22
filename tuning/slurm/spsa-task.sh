#!/usr/bin/env bash
# The SPSA job (submitted by tuning/slurm/spsa.sh): `chariot spsa` with the run's settings and
# --threads $SLURM_CPUS_PER_TASK, into RUN_DIR/spsa; continues from spsa/state.txt if a run
# before it got that far.
#SBATCH --job-name=chariot-spsa
set -euo pipefail
run=${1:?usage: spsa-task.sh RUN_DIR}
# shellcheck disable=SC1091
source "$run/run.env"
threads=${SLURM_CPUS_PER_TASK:-1}
resume=()
[ -e "$run/spsa/state.txt" ] && resume=(--resume)
echo "spsa on $(hostname): $ITERATIONS iterations of $PAIRS pairs, ${LIMIT[*]}, $threads threads ${resume[*]}"
"$run/chariot" spsa --iterations "$ITERATIONS" --pairs "$PAIRS" "${LIMIT[@]}" \
  --openings "$OPENINGS" --seed "$SEED" --threads "$threads" --out "$run/spsa" \
  "${resume[@]}" "${SPSA_ARGS[@]}"
