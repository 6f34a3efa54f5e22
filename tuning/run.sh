#!/usr/bin/env bash
# The whole tuning pipeline in one command (see tuning/README.md):
#   self-play data -> quiet positions -> Texel fit -> src/weights/tuned.rs -> build ->
#   verification match against the previous weights -> Elo.
# Usage: tuning/run.sh [--games N] [--nodes N] [--epochs N] [--lr X] [--rounds R]
#                      [--match-games N] [--tc TC] [--threads T]
set -euo pipefail
cd "$(dirname "$0")/.."

games=20000 nodes=5000 epochs=300 lr=1.0 rounds=1 match_games=400 tc=10+0.1
threads=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2 ;;
    --nodes) nodes=$2 ;;
    --epochs) epochs=$2 ;;
    --lr) lr=$2 ;;
    --rounds) rounds=$2 ;;
    --match-games) match_games=$2 ;;
    --tc) tc=$2 ;;
    --threads) threads=$2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done

data=tuning/data
mkdir -p "$data"
cargo build --release --quiet
for round in $(seq 1 "$rounds"); do
  echo "== round $round: $games games at $nodes nodes per move" >&2
  cp target/release/chariot "$data/chariot-before"
  start=$(date +%s)
  "$data/chariot-before" selfplay --games "$games" --nodes "$nodes" --threads "$threads" \
    --seed "$round" --random-plies 8 --out "$data/round$round.txt" --pgn "$data/round$round.pgn"
  # Train on every round so far: later rounds add data from stronger play.
  cat "$data"/round*.txt > "$data/train.txt"
  "$data/chariot-before" tune --data "$data/train.txt" --epochs "$epochs" --lr "$lr" \
    --out src/weights/tuned.rs --svg "tuning/loss-round$round.svg" | tee "$data/tune-round$round.txt"
  cargo build --release --quiet
  cp target/release/chariot "$data/chariot-after"
  bench=$("$data/chariot-after" bench 2>/dev/null | awk '/Nodes searched/ {print $3}')
  "$data/chariot-after" match \
    --engine "cmd=$PWD/$data/chariot-after name=tuned-r$round proto=uci" \
    --engine "cmd=$PWD/$data/chariot-before name=before-r$round proto=uci" \
    --games "$match_games" --tc "$tc" --concurrency "$threads" \
    --openings tuning/openings.epd --pgn "$data/match-round$round.pgn" | tee "$data/match-round$round.txt"
  elapsed=$(( $(date +%s) - start ))
  elo=$(grep "^Elo difference" "$data/match-round$round.txt" | tail -1 | sed 's/^Elo difference: //; s/,.*//')
  # The tuner's last line: positions N K k loss before B after A time T
  read -r _ kept _ _ _ _ before _ after _ < <(tail -1 "$data/tune-round$round.txt")
  echo "| $round | $games | $nodes | $kept | $before → $after | $match_games games, $tc | $elo | $bench |" >> tuning/results.md
  # Put the verification result on the loss curve, and redraw the Elo chart of all rounds.
  sed -i "s|</svg>|<text x=\"590\" y=\"45\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"end\">after vs before: $elo Elo ($match_games games, $tc)</text>\n</svg>|" \
    "tuning/loss-round$round.svg"
  tuning/elo-chart.sh
  echo "round $round: loss $before -> $after; Elo $elo; bench $bench; ${elapsed}s" >&2
done
