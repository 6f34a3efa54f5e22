#!/usr/bin/env bash
# Calibrates the strength levels (docs/engine.md, "Strength levels"): a ladder of Chariot skill levels
# played against each other and against Fairy-Stockfish at its own Skill Levels, then rated
# together by maximum likelihood (`chariot rate`).
#
# Usage: tuning/strength-ladder.sh [--games N] [--concurrency C] [--fsf PATH] [--bin PATH]
#                                  [--only ladder|fsf|rate]
#
# Games are node-limited, so the result does not depend on the machine's speed or load:
#   - Chariot against Chariot: 30000 nodes a move (only level 20 uses them all; every lower
#     level stops at its own node cap, at most 23000 nodes at level 19);
#   - against Fairy-Stockfish: 12000 nodes a move (the Chariot levels there cap below that).
# Openings: tuning/openings.epd, each played with both colours. PGNs go to
# tuning/data/strength/ (a pairing whose PGN already holds N games is not replayed), and the
# rating table to tuning/data/strength/ratings.md.
set -euo pipefail
cd "$(dirname "$0")/.."

games=100 concurrency=2 fsf=/usr/games/fairy-stockfish bin= only=
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2 ;;
    --concurrency) concurrency=$2 ;;
    --fsf) fsf=$2 ;;
    --bin) bin=$2 ;;
    --only) only=$2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done

out=tuning/data/strength
mkdir -p "$out"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  cp target/release/chariot "$out/chariot"
  bin=$out/chariot
fi
bin=$(realpath "$bin")

chariot() { echo "cmd=$bin name=Chariot-L$1 proto=uci option.Hash=16 \"option.Skill Level=$1\""; }
fsf_spec() { echo "cmd=$fsf name=FSF-L$1 proto=uci ranks=1 option.Hash=16 \"option.Skill Level=$1\""; }

play() { # name nodes spec1 spec2
  local name=$1 nodes=$2 a=$3 b=$4 pgn="$out/$1.pgn"
  if [ -f "$pgn" ] && [ "$(grep -c '^\[Result ' "$pgn")" -ge "$games" ]; then
    echo "== $name: done already" >&2
    return
  fi
  echo "== $name ($games games, $nodes nodes a move)" >&2
  "$bin" match --engine "$a" --engine "$b" --games "$games" --nodes "$nodes" \
    --concurrency "$concurrency" --openings tuning/openings.epd --max-plies 400 \
    --pgn "$pgn.part" --event "strength ladder" > "$out/$name.txt"
  mv "$pgn.part" "$pgn"
  grep -E "^(Score of|Elo difference)" "$out/$name.txt" >&2
}

# The Chariot ladder: neighbours, and some levels four apart.
if [ -z "$only" ] || [ "$only" = ladder ]; then
levels=(0 2 4 6 8 10 12 14 16 18 19 20)
for i in $(seq 0 $((${#levels[@]} - 2))); do
  a=${levels[$i]} b=${levels[$((i + 1))]}
  play "L$a-L$b" 30000 "$(chariot "$a")" "$(chariot "$b")"
done
for pair in "0 4" "4 8" "8 12" "12 16" "16 19" "18 20"; do
  set -- $pair
  play "L$1-L$2" 30000 "$(chariot "$1")" "$(chariot "$2")"
done
fi

# Fairy-Stockfish at its own levels against nearby Chariot levels.
if [ -z "$only" ] || [ "$only" = fsf ]; then
for pair in "20 16" "20 14" "10 14" "10 12" "0 6" "0 4"; do
  set -- $pair
  play "FSF$1-L$2" 12000 "$(fsf_spec "$1")" "$(chariot "$2")"
done
fi

"$bin" rate "$out"/*.pgn --anchor "FSF-L20=2000" | tee "$out/ratings.md"
