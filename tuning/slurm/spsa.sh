#!/usr/bin/env bash
# SPSA on Slurm: NOT AVAILABLE YET.
#
# `chariot spsa` does not exist yet, so there is nothing to distribute. When it does, this is
# where its Slurm job goes; the shape that fits the other workloads here (see docs/cluster.md):
# each SPSA iteration plays its game pairs (parameters theta+delta vs theta-delta) as an array
# job of `--slice I/N` tasks writing results files, and a dependent step merges them
# (`chariot match merge`-style, exact) and updates theta before the next iteration is submitted.
# Until then this script refuses to run rather than pretend.
echo "tuning/slurm/spsa.sh: chariot spsa does not exist yet; see docs/cluster.md (SPSA)" >&2
exit 2
