#!/usr/bin/env bash
# Fake UCI engine that offers UCI_Variant with xiangqi (default chess), as Fairy-Stockfish
# does, and answers every `go` with the move given as the first argument (default h3e3:
# Red's central cannon h2e2 written with ranks 1-10).
move="${1:-h3e3}"
while read -r line; do
  case "$line" in
    uci) echo "id name FakeVariant"; echo "option name UCI_Variant type combo default chess var chess var xiangqi var shogi"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove $move" ;;
    quit) exit 0 ;;
  esac
done
