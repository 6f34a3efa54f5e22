#!/usr/bin/env bash
# Fake UCCI engine: records every command it receives in the file given as $1, offers
# usemillisec, and answers `go` with the central cannon (h2e2), then with an illegal move.
log="$1"
n=0
while read -r line; do
  echo "$line" >> "$log"
  case "$line" in
    ucci) echo "id name FakeUcci"; echo "option usemillisec type check default false"; echo "ucciok" ;;
    isready) echo "readyok" ;;
    go*) n=$((n + 1)); if [ "$n" = 1 ]; then echo "bestmove h2e2"; else echo "nobestmove"; fi ;;
    quit) echo "bye"; exit 0 ;;
  esac
done
