#!/usr/bin/env bash
# Fake UCI engine: prints some garbage, then answers every `go` with an illegal move
# (Red's general jumping five points), or with the move given as the first argument.
move="${1:-e0e5}"
while read -r line; do
  case "$line" in
    uci) printf 'id name FakeIllegal\n\001\377 garbage line\noption name\nuciok\n' ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 12 pv $move"; echo "bestmove $move" ;;
    quit) exit 0 ;;
  esac
done
