#!/usr/bin/env bash
# Plays one whole game, Chariot (Red) against Fairymax's xiangqi engine `maxqi` (Black), under
# the real XBoard, headless (xvfb-run), with XBoard as a strict referee: an illegal move or a
# false result claim by either engine ends the game against it. See docs/xboard.md.
#
#   tests/xboard_game.sh            # uses $CARGO_TARGET_DIR (or ./target)/release/chariot
#   CHARIOT=/path/to/chariot tests/xboard_game.sh
#
# Prints the PGN and the result line. Exits 0 when the game ended with a result and Chariot did
# not forfeit (illegal move, false claim, crash); 1 otherwise. Skips (exit 0) when xboard,
# xvfb-run or maxqi is missing. Not part of `cargo test`.
set -u

XBOARD=/usr/games/xboard
MAXQI=/usr/games/maxqi
for tool in "$XBOARD" "$MAXQI"; do
    if [ ! -x "$tool" ]; then
        echo "skip: $tool is not installed (apt-get install xboard fairymax xvfb)"
        exit 0
    fi
done
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "skip: xvfb-run is not installed (apt-get install xvfb)"
    exit 0
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ENGINE=${CHARIOT:-${CARGO_TARGET_DIR:-$ROOT/target}/release/chariot}
if [ ! -x "$ENGINE" ]; then
    echo "building $ENGINE (cargo build --release)"
    (cd "$ROOT" && cargo build --release) || exit 1
fi

WORK=$(mktemp -d /tmp/xb.XXXXXX)
mkdir -p "$WORK/home"
PGN="$WORK/game.pgn"
DEBUG="$WORK/xboard.debug"
echo "engine: $ENGINE"
echo "work:   $WORK"

# Long option names with values: XBoard's short boolean flags take no value.
HOME="$WORK/home" timeout 900 xvfb-run -a -s "-screen 0 1024x768x24" \
    "$XBOARD" -variant xiangqi \
    -fcp "$ENGINE" -fd "$ROOT" -scp "$MAXQI" -sd "$WORK" \
    -noChessProgram false -matchMode true -matchGames 1 -saveGameFile "$PGN" \
    -popupExitMessage false -popupMoveErrors false -saveSettingsOnExit false -soundProgram "" \
    -tc 0:20 -inc 0.2 -autoCallFlag true -testLegality true -testClaims true -checkMates true \
    -debugMode true -nameOfDebugFile "$DEBUG" >"$WORK/xboard.out" 2>&1
status=$?
echo "xboard exit status: $status"

if [ ! -s "$PGN" ]; then
    echo "no game was saved (see $DEBUG and $WORK/xboard.out)"
    exit 1
fi
echo "----- PGN -----"
cat "$PGN"
echo "---------------"
result=$(grep -o '^\[Result "[^"]*"\]' "$PGN" | head -n 1)
reason=$(grep -o '{[^}]*}' "$PGN" | tail -n 1)
echo "RESULT: $result $reason"

# Chariot plays the first engine: any forfeit, false claim or crash of ours is a failure.
if grep -qiE "forfeit|false (win|draw) claim|illegal-move claim" "$PGN"; then
    if grep -qiE "white|red|chariot" <<<"$reason"; then
        echo "Chariot lost by a rule violation: $reason"
        exit 1
    fi
fi
case "$result" in
    *'"1-0"'* | *'"0-1"'* | *'"1/2-1/2"'*) exit 0 ;;
    *) echo "the game has no result"; exit 1 ;;
esac
