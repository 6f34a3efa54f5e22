#!/usr/bin/env bash
# Fake UCI/UCCI engine: appends every command it receives to the file given as $1, offers
# usemillisec (UCCI), UCI_Variant and Rank Base (UCI), and answers the first `go` with the
# central cannon (h2e2), later ones with `nobestmove` (which loses).
log="$1"
n=0
while read -r line; do
  echo "$line" >> "$log"
  case "$line" in
    ucci) echo "id name FakeUcci"; echo "option usemillisec type check default false"; echo "ucciok" ;;
    uci) echo "id name FakeUci"; echo "option name UCI_Variant type combo default chess var chess var xiangqi"; echo "option name Rank Base type combo default auto var auto var 0 var 1"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) n=$((n + 1)); if [ "$n" = 1 ]; then echo "bestmove h2e2"; else echo "nobestmove"; fi ;;
    quit) exit 0 ;;
  esac
done
