#!/usr/bin/env bash
# Fake UCI engine: answers the handshake, then never answers `go` (ignores `stop` too).
while read -r line; do
  case "$line" in
    uci) echo "id name FakeHang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exec sleep 60 ;;
    quit) exit 0 ;;
  esac
done
