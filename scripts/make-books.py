#!/usr/bin/env python3
"""Writes the referee's opening books, crates/lab/books/<game>.txt: balanced openings for matches
and SPRT tests, each judged by a reference engine (never by Qi's own).

- chess: the named openings of crates/play/data/chess-openings.tsv (lichess-org/chess-openings,
  CC0) of 6 to 14 plies, kept when Stockfish at depth 14 scores them within 50 centipawns.
- xiangqi: the openings of crates/play/data/xiangqi-openings.tsv, and each of them followed by
  each of Fairy-Stockfish's three best replies (MultiPV 3 at depth 12), kept when Fairy-Stockfish
  at depth 14 scores them within 60.
- gomoku (freestyle, 15x15): three stones (Black, White, Black) at random within two points of
  the centre, the two black ones not touching, drawn from a fixed seed. Not judged by an engine:
  freestyle favours Black from the first stone whatever follows, so fairness comes from each
  opening being played with both colours.

Usage, from the workspace's root: target/referee/bin/python scripts/make-books.py [--game G]
(stockfish and fairy-stockfish from Debian's packages). The books are committed: a match is
reproducible because everyone plays the same file.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from referee import BOOKS, Process  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def engine(command, variant=None):
    process = Process(command, command)
    process.send("uci")
    process.wait_for("uciok")
    if variant:
        process.send(f"setoption name UCI_Variant value {variant}")
    process.send("setoption name Threads value 1")
    process.send("isready")
    process.wait_for("readyok")
    return process


def analyse(process, moves, depth, lines=1):
    """The engine's lines at `depth`: [(score from the side to move, first move)], best first."""
    process.send(f"setoption name MultiPV value {lines}")
    process.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    process.send(f"go depth {depth}")
    found = {}
    import time

    deadline = time.monotonic() + 120
    while True:
        line = process.line(deadline)
        if line.startswith("bestmove"):
            break
        words = line.split()
        if words[:1] != ["info"] or "score" not in words or " pv " not in line:
            continue
        rank = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
        kind, value = words[words.index("score") + 1 : words.index("score") + 3]
        score = int(value) if kind == "cp" else (100000 if int(value) > 0 else -100000)
        found[rank] = (score, words[words.index("pv") + 1])
    return [found[rank] for rank in sorted(found)]


def white_score(process, moves, depth):
    """The score from the first player's side."""
    score = analyse(process, moves, depth)[0][0]
    return score if len(moves) % 2 == 0 else -score


def chess_book():
    source = os.path.join(ROOT, "crates", "play", "data", "chess-openings.tsv")
    candidates = []
    seen = set()
    with open(source, encoding="utf-8") as file:
        for line in file:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            moves = fields[2].split()
            if 6 <= len(moves) <= 14 and tuple(moves) not in seen:
                seen.add(tuple(moves))
                candidates.append((fields[1], moves))
    process = engine("stockfish")
    kept = []
    for number, (name, moves) in enumerate(candidates):
        score = white_score(process, moves, 14)
        if abs(score) <= 50:
            kept.append(f"{' '.join(moves)}  # {name}, Stockfish 15.1 depth 14: {score:+d}")
        if number % 200 == 0:
            print(f"chess: {number}/{len(candidates)} judged, {len(kept)} kept", file=sys.stderr)
    process.close()
    return kept


def xiangqi_book():
    source = os.path.join(ROOT, "crates", "play", "data", "xiangqi-openings.tsv")
    lines = []
    with open(source, encoding="utf-8") as file:
        for line in file:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            lines.append((fields[0], fields[-1].split()))
    process = engine("fairy-stockfish", "xiangqi")
    candidates = []
    seen = set()
    for code, moves in lines:
        for extended in [moves] + [moves + [reply] for _, reply in analyse(process, moves, 12, 3)]:
            if tuple(extended) not in seen:
                seen.add(tuple(extended))
                candidates.append((code, extended))
    process.send("setoption name MultiPV value 1")
    kept = []
    for code, moves in candidates:
        score = white_score(process, moves, 14)
        if abs(score) <= 60:
            kept.append(f"{' '.join(moves)}  # {code}, Fairy-Stockfish 11.1 depth 14: {score:+d}")
    process.close()
    return kept


def gomoku_book(count=300):
    chooser = random.Random(15)
    kept, seen = [], set()
    while len(kept) < count:
        stones = []
        while len(stones) < 3:
            point = (7 + chooser.randint(-2, 2), 7 + chooser.randint(-2, 2))
            if point not in stones:
                stones.append(point)
        (ax, ay), (bx, by) = stones[0], stones[2]
        if abs(ax - bx) <= 1 and abs(ay - by) <= 1:
            continue
        key = tuple(stones)
        if key in seen:
            continue
        seen.add(key)
        kept.append(" ".join(f"{x},{y}" for x, y in stones))
    return kept


HEADERS = {
    "chess": "# Balanced chess openings for scripts/referee.py, one a line in coordinates (UCI).",
    "xiangqi": "# Balanced xiangqi openings for scripts/referee.py, one a line in coordinates (files a-i, ranks 1-10 from Red's side).",
    "gomoku": "# Gomoku (freestyle 15x15) openings for scripts/referee.py: Black, White, Black as Gomocup x,y (0-based from the top left).",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["chess", "xiangqi", "gomoku"], action="append")
    args = parser.parse_args()
    os.makedirs(BOOKS, exist_ok=True)
    for game in args.game or ["chess", "xiangqi", "gomoku"]:
        lines = {"chess": chess_book, "xiangqi": xiangqi_book, "gomoku": gomoku_book}[game]()
        path = os.path.join(BOOKS, f"{game}.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write(HEADERS[game] + "\n# Written by scripts/make-books.py; see its text for how each was chosen.\n")
            file.write("\n".join(lines) + "\n")
        print(f"{path}: {len(lines)} openings", file=sys.stderr)


if __name__ == "__main__":
    main()
