#!/usr/bin/env python3
"""Regenerates crates/play/data/chess-openings.tsv from lichess-org/chess-openings (CC0).

Usage:
    scripts/openings-chess.py DIR [--commit SHA] [--output PATH]

DIR holds the source table's a.tsv ... e.tsv (columns eco, name, pgn), for instance a checkout of
https://github.com/lichess-org/chess-openings. The commit named in the output's first line is
read with `git -C DIR rev-parse HEAD` when DIR is a checkout; otherwise give it with --commit.
The output goes to crates/play/data/chess-openings.tsv beside this script unless --output names
another file (`-` for standard output).

Each output line is `eco<TAB>name<TAB>moves`, in the source's order, the moves in coordinates
(UCI; castling as the king's two-square move, e1g1), which is what qi_rules's AnyGame::play
takes; qi-play replays every line when it reads the table. Needs python-chess
(`pip install chess`).
"""

import argparse
import pathlib
import subprocess
import sys

import chess

HEADER = "# source: lichess-org/chess-openings (CC0) at commit {commit}; regenerate with scripts/openings-chess.py"


def commit_of(folder, given):
    if given:
        return given
    try:
        return subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        sys.exit(f"{folder} is not a git checkout: give the source commit with --commit")


def uci_line(pgn, where):
    """The SAN movetext `1. e4 e5 2. Nf3` as UCI moves, each checked for legality."""
    board = chess.Board()
    moves = []
    for token in pgn.split():
        if token.endswith("."):  # a move number: `1.` (the table writes no `1...`)
            continue
        try:
            move = board.parse_san(token)
        except ValueError as error:
            sys.exit(f"{where}: {token}: {error}")
        # python-chess writes standard castling as the king's two-square move (e1g1).
        moves.append(move.uci())
        board.push(move)
    if not moves:
        sys.exit(f"{where}: no moves")
    return " ".join(moves)


def table(folder, commit):
    yield HEADER.format(commit=commit)
    for letter in "abcde":
        path = folder / f"{letter}.tsv"
        with open(path, encoding="utf-8") as source:
            for number, line in enumerate(source, start=1):
                fields = line.rstrip("\n").split("\t")
                where = f"{path}:{number}"
                if number == 1:
                    if fields != ["eco", "name", "pgn"]:
                        sys.exit(f"{where}: expected the header eco, name, pgn")
                    continue
                if len(fields) != 3:
                    sys.exit(f"{where}: expected 3 tab-separated fields")
                eco, name, pgn = fields
                yield f"{eco}\t{name}\t{uci_line(pgn, where)}"


def main():
    default = pathlib.Path(__file__).resolve().parent.parent / "crates/play/data/chess-openings.tsv"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=pathlib.Path, help="the folder with a.tsv ... e.tsv")
    parser.add_argument("--commit", help="the source commit (default: DIR's git HEAD)")
    parser.add_argument("--output", default=str(default), help="where to write (- for stdout)")
    args = parser.parse_args()
    lines = list(table(args.dir, commit_of(args.dir, args.commit)))
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        pathlib.Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {len(lines) - 1} openings to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
