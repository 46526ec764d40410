#!/usr/bin/env python3
"""Writes crates/play/data/chess-openings.tsv from lichess-org/chess-openings (CC0).

Usage: scripts/openings-chess.py <directory with a.tsv ... e.tsv> <commit> > crates/play/data/chess-openings.tsv

Each line of the output: ECO code, name, and the moves in coordinates (UCI, castling as the
king's two-square move), which is what the rules core plays. Needs python-chess
(`pip install chess`).
"""
import sys

import chess

def main():
    folder, commit = sys.argv[1], sys.argv[2]
    print(f"# lichess-org/chess-openings (CC0) at {commit}; regenerate with scripts/openings-chess.py")
    for letter in "abcde":
        with open(f"{folder}/{letter}.tsv", encoding="utf-8") as table:
            next(table)  # the header: eco, name, pgn
            for line in table:
                eco, name, pgn = line.rstrip("\n").split("\t")
                board = chess.Board()
                moves = []
                for token in pgn.split():
                    if token.endswith("."):
                        continue
                    move = board.parse_san(token)
                    moves.append(move.uci())
                    board.push(move)
                print(f"{eco}\t{name}\t{' '.join(moves)}")

main()
