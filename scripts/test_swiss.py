"""Qi's Swiss pairing (FIDE's Dutch system, crates/tournament) beside py4swiss's, round by round
over random tournaments (`qi swiss check`). Run by scripts/test with the referee's Python, whose
virtual environment holds py4swiss (lib.sh's ensure_referee); QI_BIN names the qi binary."""

import os
import re
import subprocess
import sys
import unittest

QI = os.environ.get("QI_BIN", os.path.join(os.path.dirname(__file__), "..", "target", "debug", "qi"))
PY4SWISS = os.path.join(os.path.dirname(sys.executable), "py4swiss")


class DutchBesidePy4swiss(unittest.TestCase):
    def check(self, *args):
        run = subprocess.run(
            [QI, "swiss", "check", "--reference", PY4SWISS, *args],
            capture_output=True, text=True, timeout=900,
        )
        self.assertEqual(run.returncode, 0, run.stderr[-3000:])
        rounds = int(re.search(r"(\d+) rounds paired by both", run.stdout).group(1))
        same = int(re.search(r"same boards and colours: (\d+)", run.stdout).group(1))
        order = int(re.search(r"same board order too: +(\d+)", run.stdout).group(1))
        return run, rounds, same, order

    def test_every_round_of_random_tournaments_is_paired_as_py4swiss_pairs_it(self):
        run, rounds, same, order = self.check("--tournaments", "40", "--seed", "11")
        self.assertGreaterEqual(rounds, 200, run.stdout)
        # Byes, forfeits, late entries and withdrawals all happen in the sample.
        for event in ("byes", "forfeits", "late entries", "withdrawals"):
            count = int(re.search(r"(\d+) " + event, run.stdout).group(1))
            self.assertGreater(count, 0, event)
        self.assertEqual(same, rounds, run.stderr[-3000:])
        self.assertEqual(order, rounds, run.stderr[-3000:])

    def test_a_reference_that_cannot_run_is_an_error_not_a_pass(self):
        run = subprocess.run(
            [QI, "swiss", "check", "--tournaments", "1", "--reference", "/nonexistent/py4swiss"],
            capture_output=True, text=True, timeout=60,
        )
        self.assertEqual(run.returncode, 2)
        self.assertIn("cannot run the reference", run.stderr)


if __name__ == "__main__":
    unittest.main()
