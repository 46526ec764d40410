#!/usr/bin/env python3
"""Qi's match referee: two engines from a fixed book of openings, each opening played twice with
the colours swapped, the rules judged outside Qi (python-chess for chess, pyffish, which is
Fairy-Stockfish's rules, for xiangqi, five in a row counted here for gomoku).

It is the harness the engine goals are measured by (docs: docs/engine-lab.md): the same
openings in the same order for a given --seed, so two runs differ only by the engines and the
machine, and nothing in it depends on Qi's own rules code. Engines speak UCI (chess, xiangqi:
UCI_Variant is set when the engine offers it) or Gomocup/Piskvork (gomoku).

Usage (from the workspace's root; `scripts/lib.sh`'s ensure_referee makes the Python):
    target/referee/bin/python scripts/referee.py --game chess --games 200 --movetime 100 \
        --first 'target/release/qi uci' --second stockfish --second-option UCI_LimitStrength=true \
        --second-option UCI_Elo=2400 --jobs 2
    ... --game xiangqi --second fairy-stockfish
    ... --game gomoku --movetime 1000 --first 'target/release/qi piskvork' \
        --second ../shared/engines/rapfi/pbrain-rapfi

Each game's line, then the first engine's score, its wins, draws and losses, the game pairs'
pentanomial counts and an Elo estimate with its 95% interval from the pairs (the two games of
an opening are not independent, so pairs are the samples). An engine that dies or stops
answering mid-game loses that game and is started again. Exit status 0; 1 when the match could
not be finished (an engine that would not start again); 2 for bad arguments, a bad book line or
an engine that will not start at all.
"""

import argparse
import math
import os
import queue
import random
import shlex
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BOOKS = os.path.join(HERE, "..", "crates", "lab", "books")
MAX_PLIES = {"chess": 500, "xiangqi": 400, "gomoku": 225}


class EngineError(Exception):
    """An engine that died, said something it should not, or took far too long."""


class Process:
    """An engine process, read a line at a time by a thread so that reads can time out."""

    def __init__(self, command, name):
        self.name = name
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"{name}: cannot start {command!r}: {error}") from error
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.proc.stdout:
                self.lines.put(line.rstrip("\r\n"))
        except (ValueError, OSError):
            pass  # closed under the reader: the engine is being shut down
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineError(f"{self.name}: the engine has gone ({error})") from error

    def line(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError(f"{self.name}: no answer in time")
        try:
            line = self.lines.get(timeout=remaining)
        except queue.Empty as error:
            raise EngineError(f"{self.name}: no answer in time") from error
        if line is None:
            raise EngineError(f"{self.name}: the engine has gone")
        return line

    def wait_for(self, prefix, seconds=30.0):
        deadline = time.monotonic() + seconds
        while True:
            line = self.line(deadline)
            if line.startswith(prefix):
                return line

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        try:
            self.proc.stdout.close()
        except OSError:
            pass


def limit_text(limit):
    kind, value = limit
    return f"{value} nodes a move" if kind == "nodes" else f"{value} ms a move"


class UciEngine:
    """A UCI engine playing chess or xiangqi."""

    def __init__(self, command, options, game, name):
        self.process = Process(command, name)
        self.process.send("uci")
        offered = set()
        deadline = time.monotonic() + 30
        while True:
            line = self.process.line(deadline)
            if line.startswith("option name "):
                offered.add(line[len("option name "):].split(" type ")[0].strip())
            if line == "uciok":
                break
        if game == "xiangqi":
            if "UCI_Variant" not in offered:
                raise EngineError(f"{name}: offers no UCI_Variant, so cannot play xiangqi")
            self.process.send("setoption name UCI_Variant value xiangqi")
        for option, value in options:
            self.process.send(f"setoption name {option} value {value}")
        self.ready()

    def ready(self):
        self.process.send("isready")
        self.process.wait_for("readyok")

    def new_game(self):
        self.process.send("ucinewgame")
        self.ready()

    def move(self, start, moves, limit):
        position = "position startpos" if start is None else f"position fen {start}"
        if moves:
            position += " moves " + " ".join(moves)
        self.process.send(position)
        kind, value = limit
        self.process.send(f"go {'nodes' if kind == 'nodes' else 'movetime'} {value}")
        # Generous: a machine shared with other work is slow at times; an engine ten times
        # over its time is broken, not slow.
        seconds = (value / 1000.0 * 10 + 5) if kind == "movetime" else 120
        line = self.process.wait_for("bestmove", seconds)
        parts = line.split()
        return parts[1] if len(parts) > 1 else "(none)"

    def close(self):
        try:
            self.process.send("quit")
        except EngineError:
            pass  # already gone
        self.process.close()


class PiskvorkEngine:
    """A Gomocup (Piskvork) engine playing freestyle gomoku on a 15x15 board."""

    SIZE = 15

    def __init__(self, command, options, game, name):
        self.process = Process(command, name)
        self.movetime = None
        self.options = options
        self.started = False

    def _ok(self):
        self.process.wait_for("OK")

    def setup(self, limit):
        kind, value = limit
        if kind != "movetime":
            raise EngineError("gomoku engines are limited by time: use --movetime")
        if self.started:
            time.sleep(0.03)
            self.process.send("RESTART")
            self._ok()
            return
        self.process.send(f"START {self.SIZE}")
        self._ok()
        for line in [
            f"INFO timeout_turn {value}",
            "INFO timeout_match 0",
            "INFO time_left 2147483647",
            "INFO rule 0",
        ] + [f"INFO {name} {val}" for name, val in self.options]:
            self.process.send(line)
        self.started = True

    def new_game(self):
        pass

    def move(self, start, moves, limit):
        # The whole board each turn: the engine keeps no state the referee must trust.
        time.sleep(0.03)  # Rapfi answers a moment before it reads the next line.
        self.process.send("BOARD")
        to_move = len(moves) % 2
        for index, point in enumerate(moves):
            x, y = point
            own = 1 if index % 2 == to_move else 2
            self.process.send(f"{x},{y},{own}")
        self.process.send("DONE")
        deadline = time.monotonic() + limit[1] / 1000.0 * 10 + 5
        while True:
            line = self.process.line(deadline).strip()
            if line.startswith("ERROR") or line.startswith("UNKNOWN"):
                raise EngineError(f"{self.process.name}: {line}")
            parts = line.split(",")
            if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
                return (int(parts[0]), int(parts[1]))

    def close(self):
        try:
            self.process.send("END")
        except EngineError:
            pass  # already gone
        self.process.close()


class ChessRules:
    """python-chess judges."""

    def __init__(self):
        import chess

        self.chess = chess

    def start(self, opening):
        board = self.chess.Board()
        for move in opening:
            board.push_uci(move)
        return board

    def play(self, board, text):
        try:
            move = self.chess.Move.from_uci(text)
        except ValueError:
            return False
        if move not in board.legal_moves:
            return False
        board.push(move)
        return True

    def result(self, board, plies):
        # Draws that have happened (a position's third time, a hundred quiet plies), not those a
        # side could claim with its next move: an engine may be playing on to win.
        outcome = board.outcome()
        if outcome is not None:
            reason = outcome.termination.name.lower().replace("_", " ")
            if outcome.winner is None:
                return None, reason
            return (0 if outcome.winner == self.chess.WHITE else 1), reason
        if board.is_repetition(3):
            return None, "threefold repetition"
        if board.halfmove_clock >= 100:
            return None, "fifty moves"
        if plies >= MAX_PLIES["chess"]:
            return None, f"{plies} plies"
        return "go on", ""

    def moves(self, board):
        return [move.uci() for move in board.move_stack]

    def to_move(self, board):
        return 0 if board.turn == self.chess.WHITE else 1


class XiangqiRules:
    """pyffish (Fairy-Stockfish's rules) judges, with its repetition and perpetual-check rules."""

    def __init__(self):
        import pyffish

        self.ff = pyffish
        self.fen = pyffish.start_fen("xiangqi")

    def start(self, opening):
        moves = []
        for move in opening:
            if move not in self.ff.legal_moves("xiangqi", self.fen, moves):
                raise ValueError(f"book move {move} is not legal")
            moves.append(move)
        return moves

    def play(self, moves, text):
        if text not in self.ff.legal_moves("xiangqi", self.fen, moves):
            return False
        moves.append(text)
        return True

    def result(self, moves, plies):
        to_move = len(moves) % 2
        legal = self.ff.legal_moves("xiangqi", self.fen, moves)
        if not legal:
            value = self.ff.game_result("xiangqi", self.fen, moves)
            return self._decided(value, to_move, "no legal move")
        ended, value = self.ff.is_optional_game_end("xiangqi", self.fen, moves)
        if ended:
            return self._decided(value, to_move, "repetition rules")
        ended, value = self.ff.is_immediate_game_end("xiangqi", self.fen, moves)
        if ended:
            return self._decided(value, to_move, "rules")
        if plies >= MAX_PLIES["xiangqi"]:
            return None, f"{plies} plies"
        return "go on", ""

    @staticmethod
    def _decided(value, to_move, reason):
        if value == 0:
            return None, reason
        # The value is from the side to move's point of view.
        return (to_move if value > 0 else 1 - to_move), reason

    def moves(self, moves):
        return list(moves)

    def to_move(self, moves):
        return len(moves) % 2


class GomokuRules:
    """Freestyle gomoku on 15x15: five or more in a row wins; a full board is drawn."""

    SIZE = 15

    def start(self, opening):
        stones = []
        for point in opening:
            if point in stones:
                raise ValueError("book stone on a stone")
            stones.append(point)
        return stones

    def play(self, stones, point):
        x, y = point
        if not (0 <= x < self.SIZE and 0 <= y < self.SIZE) or point in stones:
            return False
        stones.append(point)
        return True

    def result(self, stones, plies):
        if stones and self._five(stones):
            return (len(stones) - 1) % 2, "five in a row"
        if len(stones) >= self.SIZE * self.SIZE:
            return None, "full board"
        return "go on", ""

    @staticmethod
    def _five(stones):
        last = stones[-1]
        mine = set(stones[(len(stones) - 1) % 2 :: 2])
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                x, y = last
                while True:
                    x, y = x + sign * dx, y + sign * dy
                    if (x, y) not in mine:
                        break
                    count += 1
            if count >= 5:
                return True
        return False

    def moves(self, stones):
        return [f"{x},{y}" for x, y in stones]

    def to_move(self, stones):
        return len(stones) % 2


RULES = {"chess": ChessRules, "xiangqi": XiangqiRules, "gomoku": GomokuRules}


def read_book(game, path):
    """The book's openings: one a line, moves separated by spaces (gomoku: x,y points)."""
    path = path or os.path.join(BOOKS, f"{game}.txt")
    openings = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if game == "gomoku":
                try:
                    points = [tuple(int(v) for v in p.split(",")) for p in line.split()]
                except ValueError as error:
                    raise SystemExit(f"{path}:{number}: not x,y points: {line!r}") from error
                openings.append(points)
            else:
                openings.append(line.split())
    if not openings:
        raise SystemExit(f"{path}: no openings")
    return openings


def play_game(rules, engines, first_index, opening, limit):
    """One game; engines[first_index] moves first. Returns (score of engines[0], reason, moves)."""
    position = rules.start(opening)
    for engine in engines:
        engine.new_game()
    plies = len(opening)
    while True:
        verdict, reason = rules.result(position, plies)
        if verdict != "go on":
            break
        side = rules.to_move(position)
        index = first_index if side == 0 else 1 - first_index
        moves = rules.moves(position) if not isinstance(rules, GomokuRules) else list(position)
        try:
            answer = engines[index].move(None, moves, limit)
        except EngineError as error:
            verdict, reason = 1 - side, f"{error}"
            break
        if not rules.play(position, answer):
            verdict, reason = 1 - side, f"illegal move {answer} by {engines[index].process.name}"
            break
        plies += 1
    if verdict is None:
        score = 0.5
    else:
        winner_index = first_index if verdict == 0 else 1 - first_index
        score = 1.0 if winner_index == 0 else 0.0
    return score, reason, rules.moves(position)


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(pairs):
    """Elo of the first engine with its 95% interval, from the pairs' scores (0 to 2)."""
    n = len(pairs)
    if n == 0:
        return "no pairs"
    means = [p / 2 for p in pairs]
    mean = sum(means) / n
    variance = sum((m - mean) ** 2 for m in means) / max(n - 1, 1)
    margin = 1.96 * math.sqrt(variance / n)
    low, high = elo(mean - margin), elo(mean + margin)
    return f"Elo {elo(mean):+.0f} [{low:+.0f}, {high:+.0f}] (95%, {n} pairs)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(RULES), required=True)
    parser.add_argument("--first", required=True, help="the engine under test (its command)")
    parser.add_argument("--second", required=True, help="the opponent (its command)")
    parser.add_argument("--first-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--second-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--games", type=int, default=200, help="games, an even number (default 200)")
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--movetime", type=int, help="milliseconds a move (default 100)")
    limits.add_argument("--nodes", type=int, help="nodes a move (chess and xiangqi)")
    parser.add_argument("--book", help="openings file (default crates/lab/books/<game>.txt)")
    parser.add_argument("--seed", type=int, default=1, help="which openings, in which order")
    parser.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games takes an even number, 2 or more: each opening is played twice")
    if not 1 <= args.jobs <= 16:
        parser.error("--jobs takes 1 to 16")
    if args.nodes is not None:
        limit = ("nodes", args.nodes)
    else:
        limit = ("movetime", 100 if args.movetime is None else args.movetime)
    if limit[1] <= 0:
        parser.error("the limit must be above 0")
    if args.game == "gomoku" and limit[0] == "nodes":
        parser.error("gomoku engines are limited by time: use --movetime")

    def options(texts, flag):
        pairs = []
        for text in texts:
            if "=" not in text:
                parser.error(f"{flag} takes NAME=VALUE, not {text!r}")
            pairs.append(tuple(text.split("=", 1)))
        return pairs

    options_of = [options(args.first_option, "--first-option"), options(args.second_option, "--second-option")]
    book = read_book(args.game, args.book)
    rules = RULES[args.game]()
    for number, opening in enumerate(book, 1):
        try:
            position = rules.start(opening)
        except ValueError as error:
            parser.error(f"opening {number} of the book: {error}")
        if rules.result(position, len(opening))[0] != "go on":
            parser.error(f"opening {number} of the book ends the game")
    random.Random(args.seed).shuffle(book)
    pairs_wanted = args.games // 2
    openings = [book[i % len(book)] for i in range(pairs_wanted)]
    engine_class = PiskvorkEngine if args.game == "gomoku" else UciEngine

    def start_engines():
        engines = [
            engine_class(args.first, options_of[0], args.game, "first"),
            engine_class(args.second, options_of[1], args.game, "second"),
        ]
        if args.game == "gomoku":
            for engine in engines:
                engine.setup(limit)
        return engines

    try:
        for engine in start_engines():
            engine.close()
    except EngineError as error:
        print(f"referee: {error}", file=sys.stderr)
        return 2

    print(
        f"{args.game}: {args.first} vs {args.second}, {limit_text(limit)}, {args.games} games from "
        f"{len(book)} openings (seed {args.seed}), {args.jobs} at a time",
        flush=True,
    )
    tasks = queue.Queue()
    for game in range(args.games):
        tasks.put(game)
    lock = threading.Lock()
    scores = {}
    tally = [0, 0, 0]
    failures = []

    def worker():
        rules = RULES[args.game]()
        try:
            engines = start_engines()
        except EngineError as error:
            failures.append(str(error))
            return
        try:
            while True:
                try:
                    game = tasks.get_nowait()
                except queue.Empty:
                    return
                first_index = game % 2
                opening = openings[game // 2]
                try:
                    score, reason, moves = play_game(rules, engines, first_index, opening, limit)
                except EngineError as error:
                    failures.append(str(error))
                    return
                if "has gone" in reason or "no answer" in reason:
                    # A crashed engine lost the game; the next game gets fresh processes.
                    for engine in engines:
                        engine.close()
                    try:
                        engines = start_engines()
                    except EngineError as error:
                        engines = []
                        failures.append(str(error))
                        return
                with lock:
                    scores[game] = score
                    tally[0 if score == 1 else 1 if score == 0.5 else 2] += 1
                    done = sum(tally)
                    total = (tally[0] + tally[1] / 2) / done
                    colour = "first" if first_index == 0 else "second"
                    print(
                        f"game {game + 1:3} (opening {game // 2 + 1}, the first engine moves {colour}): "
                        f"{score} by {reason}, {len(moves)} plies   running {total:.1%} "
                        f"+{tally[0]} ={tally[1]} -{tally[2]}",
                        flush=True,
                    )
                    if "illegal" in reason:
                        print("  moves: " + " ".join(moves), flush=True)
        finally:
            for engine in engines:
                engine.close()

    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        print(f"referee: {failures[0]}", file=sys.stderr)
    done = sum(tally)
    if not done:
        return 2
    pairs = [scores[2 * p] + scores[2 * p + 1] for p in range(pairs_wanted) if 2 * p in scores and 2 * p + 1 in scores]
    pentanomial = [sum(1 for p in pairs if p == half / 2) for half in range(5)]
    total = (tally[0] + tally[1] / 2) / done
    print(
        f"first engine: {total:.1%} in {done} games, +{tally[0]} ={tally[1]} -{tally[2]}; "
        f"pairs (0, 1/2, 1, 3/2, 2) {pentanomial}; {summary(pairs)}",
        flush=True,
    )
    if failures:
        print(f"referee: the match stopped after {done} of {args.games} games", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
