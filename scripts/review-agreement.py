#!/usr/bin/env python3
"""Does Qi's game review mark the blunders Stockfish marks? (issue 47, "review and analysis judge
with the stronger engine").

Plays a set of chess games with blunders in them (Stockfish at a low UCI_Elo against itself, from
the chess book's openings), then judges every move twice: once by Qi's own review, the app's code
run by `qi review` (crates/tasks/src/review.rs: each position searched for 250 ms, a move that
looks like a mistake or worse checked by a second, longer pair of searches), and once by Stockfish
at a deep fixed depth, the reference: the mover's winning chance before the move (the score of the
position) against the chance after it (the score of the position the move made), on lichess's
curve, 15 points or more a blunder, 10 a mistake, 5 an inaccuracy. Qi's marks are counted twice,
as the first pass alone gives them and as the review gives them after its checks. Prints both
engines' marks side by side for the moves either calls a mistake or worse, then how far they agree
and the time Qi's review took.

    target/referee/bin/python scripts/review-agreement.py --games 8
"""

import argparse
import math
import random
import re
import shutil
import subprocess
import time

import chess
import chess.engine

LICHESS_K = 0.00368208


def chance(score: chess.engine.PovScore, turn: chess.Color) -> float:
    """The side to move's winning chance in percent, as crates/ai/src/review.rs computes it."""
    pov = score.pov(turn)
    if pov.is_mate():
        return 100.0 if pov.mate() > 0 else 0.0
    cp = pov.score()
    x = max(-6.0, min(6.0, -cp / (math.log(10) / LICHESS_K)))
    return 100.0 / (1.0 + 10.0 ** x)


def judgement(loss: float) -> str:
    if loss >= 15:
        return "blunder"
    if loss >= 10:
        return "mistake"
    if loss >= 5:
        return "inaccuracy"
    return "ok"


def position_chances(engine, boards, limit):
    """Each position's winning chance for its side to move; finished positions by the rules."""
    out = []
    spent = 0.0
    for board in boards:
        if board.is_checkmate():
            out.append(0.0)
            continue
        if board.is_game_over(claim_draw=False):
            out.append(50.0)
            continue
        started = time.monotonic()
        info = engine.analyse(board, limit)
        spent += time.monotonic() - started
        # An engine may answer a forced move at once, with no score: the position is then worth
        # what the position after its only move is worth (filled in below).
        out.append(chance(info["score"], board.turn) if "score" in info else None)
    for i in range(len(out) - 1, -1, -1):
        if out[i] is None:
            out[i] = 100.0 - out[i + 1] if i + 1 < len(out) and out[i + 1] is not None else 50.0
    return out, spent


MOVE_LINE = re.compile(r"^move +(\d+) (\S+) +(\w+) +loss +([\d.]+)(?:  checked: first pass (\w+) ([\d.]+))?")
SPENT_LINE = re.compile(r" in (\d+) ms$")


def qi_review(command, moves, movetime, check):
    """Qi's review of the game: per move (first pass's mark and loss, final mark and loss), and
    the milliseconds it took."""
    words = {"best": "ok", "good": "ok"}
    output = subprocess.run(
        command.split() + ["review", "chess", "startpos", *moves, "--movetime", str(movetime),
                           "--check", str(check)],
        check=True, capture_output=True, text=True).stdout
    judged = []
    spent = 0.0
    for line in output.splitlines():
        match = MOVE_LINE.match(line)
        if match:
            final = (words.get(match[3], match[3]), float(match[4]))
            first = (words.get(match[5], match[5]), float(match[6])) if match[5] else final
            judged.append((first, final))
        elif SPENT_LINE.search(line):
            spent = float(SPENT_LINE.search(line)[1])
    if len(judged) != len(moves):
        raise SystemExit(f"qi review judged {len(judged)} of {len(moves)} moves:\n{output}")
    return judged, spent


def marks(chances):
    """The judgement of each move: the mover's chance before it against after it."""
    result = []
    for before, after in zip(chances, chances[1:]):
        loss = max(0.0, before - (100.0 - after))
        result.append((judgement(loss), loss))
    return result


def play_game(engine, opening, movetime, max_plies):
    board = chess.Board()
    for uci in opening:
        board.push_uci(uci)
    start = len(board.move_stack)
    while not board.is_game_over(claim_draw=False) and len(board.move_stack) < max_plies:
        result = engine.play(board, chess.engine.Limit(time=movetime / 1000.0))
        board.push(result.move)
    return board, start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--qi", default="target/release/qi", help="the qi command")
    parser.add_argument("--movetime", type=int, default=250, help="Qi's ms a position (the review's)")
    parser.add_argument("--check", type=int, default=350, help="Qi's ms a checked move's position")
    # Debian installs Stockfish in /usr/games, which a non-login shell's PATH may lack.
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=18, help="Stockfish's depth a position")
    parser.add_argument("--players-elo", type=int, default=1350, help="UCI_Elo of the players")
    parser.add_argument("--book", default="crates/lab/books/chess.txt")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    openings = [
        line.split("#")[0].split()
        for line in open(args.book, encoding="utf-8")
        if line.split("#")[0].strip()
    ]
    player = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    player.configure({"UCI_LimitStrength": True, "UCI_Elo": args.players_elo, "Threads": 1})
    reference = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    reference.configure({"Threads": 1})

    names = ["ok", "inaccuracy", "mistake", "blunder"]
    serious = ("mistake", "blunder")
    tables = {"first pass": {(a, b): 0 for a in names for b in names},
              "checked": {(a, b): 0 for a in names for b in names}}
    qi_seconds = 0.0
    reviewed = 0
    positions = 0
    for game in range(args.games):
        board, start = play_game(player, rng.choice(openings), 50, 160)
        replay = chess.Board()
        boards = []
        for ply, move in enumerate(board.move_stack):
            if ply >= start:
                boards.append(replay.copy())
            replay.push(move)
        boards.append(replay.copy())
        judged, spent = qi_review(args.qi, [m.uci() for m in board.move_stack], args.movetime, args.check)
        theirs, _ = position_chances(reference, boards, chess.engine.Limit(depth=args.depth))
        qi_seconds += spent / 1000.0
        reviewed += len(board.move_stack) + 1
        positions += len(boards) - 1
        for ply, ((first, final), (sf, sf_loss)) in enumerate(zip(judged[start:], marks(theirs))):
            tables["first pass"][(sf, first[0])] += 1
            tables["checked"][(sf, final[0])] += 1
            if final[0] in serious or first[0] in serious or sf in serious:
                san = boards[ply].san(board.move_stack[start + ply])
                number = (start + ply) // 2 + 1
                dots = "." if boards[ply].turn == chess.WHITE else "..."
                print(f"game {game + 1:3} {number}{dots}{san:7} stockfish {sf:10} ({sf_loss:4.1f})  "
                      f"qi {final[0]:10} ({final[1]:4.1f}), first pass {first[0]:10} ({first[1]:4.1f})")
    for engine in (player, reference):
        engine.quit()

    print()
    print(f"moves judged: {positions} in {args.games} games")
    for name, table in tables.items():
        summarise(table, names, f"Qi's marks, {name}", args)
    print(f"Qi's review: {qi_seconds:.0f} s for {reviewed} positions, checks included "
          f"({1000.0 * qi_seconds / max(1, reviewed):.0f} ms a position)")


def summarise(table, names, title, args):
    print()
    print("rows: Stockfish's mark (depth %d); columns: %s (%d ms a position, %d ms a check)"
          % (args.depth, title, args.movetime, args.check))
    print("%-11s" % "" + "".join("%11s" % n for n in names))
    for a in names:
        print("%-11s" % a + "".join("%11d" % table[(a, b)] for b in names))
    sf_blunders = sum(table[("blunder", b)] for b in names)
    qi_blunders = sum(table[(a, "blunder")] for a in names)
    both = table[("blunder", "blunder")]
    serious = ("mistake", "blunder")
    found = sum(table[("blunder", b)] for b in serious)
    false_blunders = sum(table[(a, "blunder")] for a in ("ok", "inaccuracy"))
    qi_serious = sum(table[(a, b)] for a in names for b in serious)
    false_serious = sum(table[(a, b)] for a in ("ok", "inaccuracy") for b in serious)
    print(f"Stockfish's blunders: {sf_blunders}; Qi marks {both} of them blunders "
          f"({100.0 * both / max(1, sf_blunders):.0f}%), {found} a mistake or a blunder "
          f"({100.0 * found / max(1, sf_blunders):.0f}%)")
    print(f"Qi's blunders: {qi_blunders}; Stockfish agrees on {both} "
          f"({100.0 * both / max(1, qi_blunders):.0f}%); {false_blunders} are an inaccuracy or less to Stockfish")
    print(f"Qi's mistakes and blunders: {qi_serious}; {false_serious} are an inaccuracy or less to Stockfish")


if __name__ == "__main__":
    main()
