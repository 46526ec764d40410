"""Tests of the match referee (scripts/referee.py) and its opening books: the rules it judges
by, the books' lines, and a short match of the qi binary against itself. Run by scripts/test
with the referee's Python (lib.sh's ensure_referee); QI_BIN names the qi binary (default
target/debug/qi)."""

import io
import os
import sys
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import referee  # noqa: E402

QI = os.environ.get("QI_BIN", os.path.join(os.path.dirname(__file__), "..", "target", "debug", "qi"))


class Rules(unittest.TestCase):
    def test_chess_mate_stalemate_and_illegal_moves(self):
        rules = referee.ChessRules()
        board = rules.start(["f2f3", "e7e5", "g2g4"])
        self.assertEqual(rules.result(board, 3), ("go on", ""))
        self.assertFalse(rules.play(board, "e1e2"))  # not Black's piece
        self.assertFalse(rules.play(board, "zz"))
        self.assertTrue(rules.play(board, "d8h4"))
        self.assertEqual(rules.result(board, 4), (1, "checkmate"))
        stalemate = rules.chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        self.assertEqual(rules.result(stalemate, 80)[0], None)

    def test_chess_threefold_repetition_is_a_draw(self):
        rules = referee.ChessRules()
        board = rules.start([])
        for _ in range(2):
            for move in ["g1f3", "g8f6", "f3g1", "f6g8"]:
                self.assertTrue(rules.play(board, move))
        self.assertEqual(rules.result(board, 8), (None, "threefold repetition"))

    def test_xiangqi_mate_and_illegal_moves(self):
        rules = referee.XiangqiRules()
        moves = rules.start(["h3e3", "h10g8"])
        self.assertFalse(rules.play(moves, "c4c3"))  # a soldier may not retreat
        self.assertEqual(rules.result(moves, 2), ("go on", ""))
        # Red to move mates: a chariot on Black's back rank, the other shutting rank 9, Red's
        # general guarding the e-file.
        fen_rules = referee.XiangqiRules()
        fen_rules.fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
        mated = []
        self.assertEqual(fen_rules.result(mated, 0), ("go on", ""))
        self.assertTrue(fen_rules.play(mated, "b1b10"))
        self.assertEqual(fen_rules.result(mated, 1), (0, "no legal move"))

    def test_gomoku_five_in_a_row_each_way_and_taken_points(self):
        rules = referee.GomokuRules()
        for step in [(1, 0), (0, 1), (1, 1), (1, -1)]:
            stones = []
            for i in range(5):
                self.assertTrue(rules.play(stones, (5 + i * step[0], 7 + i * step[1])))
                if i < 4:
                    self.assertEqual(rules.result(stones, 0), ("go on", ""))
                    self.assertTrue(rules.play(stones, (14 - i, 0)))  # White's, far away
            self.assertEqual(rules.result(stones, 9), (0, "five in a row"), step)
        stones = [(7, 7)]
        self.assertFalse(rules.play(stones, (7, 7)))
        self.assertFalse(rules.play(stones, (15, 0)))
        self.assertEqual(rules.result([(7, 7), (8, 8)], 2), ("go on", ""))


class Books(unittest.TestCase):
    def test_every_opening_is_legal_and_the_books_are_big_enough(self):
        for game, least in [("chess", 100), ("xiangqi", 100), ("gomoku", 100)]:
            book = referee.read_book(game, None)
            self.assertGreaterEqual(len(book), least, game)
            self.assertEqual(len(set(map(tuple, book))), len(book), f"{game}: repeated openings")
            rules = referee.RULES[game]()
            for opening in book:
                position = rules.start(opening)
                self.assertEqual(rules.result(position, len(opening))[0], "go on", (game, opening))


class Match(unittest.TestCase):
    def play(self, *args):
        out = io.StringIO()
        with redirect_stdout(out):
            status = referee.main(list(args))
        return status, out.getvalue()

    def test_a_short_match_of_qi_against_itself_at_fixed_nodes(self):
        for game in ["chess", "xiangqi"]:
            status, out = self.play(
                "--game", game, "--games", "2", "--nodes", "300",
                "--first", f"{QI} uci", "--second", f"{QI} uci",
            )
            self.assertEqual(status, 0, out)
            self.assertIn("first engine:", out)
            self.assertEqual(out.count("\ngame "), 2, out)
            self.assertNotIn("illegal", out)

    def test_an_engine_that_does_not_start_is_said_and_nothing_is_played(self):
        status, out = self.play("--game", "chess", "--games", "2", "--first", "/nonexistent/engine", "--second", f"{QI} uci")
        self.assertEqual(status, 2)
        self.assertNotIn("\ngame ", out)

    def test_an_engine_that_dies_mid_game_loses_and_is_started_again(self):
        # A shell "engine" that exits when asked to move.
        fake = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) exit 3;; esac; done'"
        status, out = self.play("--game", "chess", "--games", "2", "--nodes", "100", "--first", fake, "--second", f"{QI} uci")
        self.assertEqual(status, 0, out)
        self.assertEqual(out.count("has gone"), 2, out)
        self.assertIn("first engine: 0.0% in 2 games", out)

    def test_a_bad_book_line_is_refused_before_any_game(self):
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as book:
            book.write("e2e4 e7e5\ne2e5\n")
        try:
            with self.assertRaises(SystemExit) as refused:
                self.play("--game", "chess", "--games", "2", "--book", book.name, "--first", f"{QI} uci", "--second", f"{QI} uci")
            self.assertEqual(refused.exception.code, 2)
        finally:
            os.unlink(book.name)

    def test_an_engine_that_plays_an_illegal_move_loses(self):
        # A shell "engine" that answers every go with a move that is never legal from the start.
        fake = "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) echo bestmove e2e5;; quit) exit;; esac; done'"
        status, out = self.play("--game", "chess", "--games", "2", "--nodes", "100", "--first", fake, "--second", f"{QI} uci")
        self.assertEqual(status, 0, out)
        self.assertIn("illegal move e2e5", out)
        self.assertIn("first engine: 0.0%", out)


if __name__ == "__main__":
    unittest.main()
