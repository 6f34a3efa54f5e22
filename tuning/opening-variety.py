#!/usr/bin/env python3
"""Opening variety of a PGN file: how many distinct positions the first GAMES games from the
start position (games with a FEN tag are skipped) reach after PLIES plies (docs/engine.md,
"Opening book"). Offline helper; reads Chariot's match PGN (ICCS moves `H2-E2` or coordinates
`h2e2`, ranks 0-9) and replays the moves on a plain board (the games were refereed when played,
so no legality check is needed here).

Usage: tuning/opening-variety.py FILE.pgn [--games 100] [--plies 10]
"""
import re
import sys

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def board_of(fen_board):
    board = {}
    for i, row in enumerate(fen_board.split("/")):
        rank = 9 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, rank)] = ch
                file += 1
    return board


def square(text):
    return (ord(text[0].lower()) - ord("a"), int(text[1:]))


def games(text):
    """Yields (tags, move tokens) per game."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = re.findall(r"\b([A-Ia-i]\d)-?([A-Ia-i]\d)\b", body)
        if moves:
            yield tags, moves


def main():
    args = sys.argv[1:]
    path = args[0]
    n_games = int(args[args.index("--games") + 1]) if "--games" in args else 100
    plies = int(args[args.index("--plies") + 1]) if "--plies" in args else 10
    seen = set()
    counted = 0
    for tags, moves in games(open(path, encoding="utf-8").read()):
        if counted == n_games:
            break
        if "FEN" in tags or len(moves) < plies:
            continue
        board = board_of(START)
        for frm, to in moves[:plies]:
            piece = board.pop(square(frm))
            board[square(to)] = piece
        seen.add((tuple(sorted(board.items())), plies % 2))
        counted += 1
    print(f"{path}: {len(seen)} distinct positions after {plies} plies in {counted} games")


if __name__ == "__main__":
    main()
