#!/usr/bin/env bash
# Fake UCI engine: answers the handshake, then dies (exit status 3) on the first `go`.
while read -r line; do
  case "$line" in
    uci) echo "id name FakeCrash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
