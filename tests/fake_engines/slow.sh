#!/usr/bin/env bash
# Fake UCI engine: plays the central cannon (h2e2) as Red, but only after sleeping
# $1 seconds (default 0.5), ignoring `stop`: it overruns short clocks.
delay="${1:-0.5}"
while read -r line; do
  case "$line" in
    uci) echo "id name FakeSlow"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) sleep "$delay"; echo "bestmove h2e2" ;;
    quit) exit 0 ;;
  esac
done
