"""Tests for tools/openbench/spsa_schedule.py: a run cut into pieces follows OpenBench's schedule.

Run from the repository root (tests/match_tool.rs runs them with the others):
    python3 -m unittest discover -s tools -p 'test_*.py'
"""

import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'openbench'))

import spsa_schedule as schedule  # noqa: E402


def openbench_gains(c_end, r_end, k, n, alpha=0.602, gamma=0.101, a_ratio=0.1):
    """OpenBench's own arithmetic (spsa_utils.py at 9906bad): the values it stores for a
    parameter, then what it hands a worker at iteration k."""
    c_value = c_end * n ** gamma
    a_value = r_end * c_end ** 2 * (a_ratio * n + n) ** alpha
    c = max(c_value / k ** gamma, 0.5)
    return c, a_value / (a_ratio * n + k) ** alpha / c ** 2


class Schedule(unittest.TestCase):
    LINE = 'lmr_base, int, 75, 25, 150, 8, 0.01'

    def sent(self, done, n=2500):
        fields = [f.strip() for f in schedule.piece_lines([self.LINE], done, n)[0].split(',')]
        self.assertEqual(fields[:5], ['lmr_base', 'int', '75', '25', '150'])
        return float(fields[5]), float(fields[6])

    def test_a_piece_holds_the_gains_of_its_next_iteration(self):
        for done in (0, 150, 1249, 2499):
            c, r = self.sent(done)
            want_c, want_r = openbench_gains(8, 0.01, done + 1, 2500)
            self.assertAlmostEqual(c, want_c, delta=1e-4 * want_c)
            self.assertAlmostEqual(r, want_r, delta=1e-4 * want_r)

    def test_the_schedule_ends_at_c_end_and_r_end(self):
        self.assertEqual(self.sent(2499), (8.0, 0.01))

    def test_held_gains_stay_put_on_the_server(self):
        # The piece's lines as OpenBench would schedule them with alpha and gamma HELD.
        c, r = self.sent(150)
        for k in (1, 150, 2500):
            got_c, got_r = openbench_gains(c, r, k, 2500, alpha=schedule.HELD, gamma=schedule.HELD)
            self.assertAlmostEqual(got_c, c, delta=1e-6 * c)
            self.assertAlmostEqual(got_r, r, delta=1e-6 * r)

    def test_the_totals_line_reads_back(self):
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('# OpenBench SPSA ...\n')
            f.write(schedule.total_line(1240, 310, 2, 2500))
            f.write('lmr_base, int, 74.5, 25, 150, 8, 0.01\n')
        try:
            self.assertEqual(schedule.read_totals(f.name), (1240, 310, 2))
            with open(f.name, 'w') as g:
                g.write('# no totals: a file from before pieces were counted\n')
            self.assertEqual(schedule.read_totals(f.name), (0, 0, 0))
        finally:
            os.unlink(f.name)
        self.assertIn('in 1 piece of', schedule.total_line(600, 150, 1, 2500))

    def test_a_piece_goes_on_in_the_book(self):
        # The first piece starts at opening 1; 530 games are 265 pairs, so the next piece
        # starts at 266 of the same shuffle, and a run longer than the book wraps round.
        self.assertEqual(schedule.book_start(0, 6000), 1)
        self.assertEqual(schedule.book_start(530, 6000), 266)
        self.assertEqual(schedule.book_start(531, 6000), 266)
        self.assertEqual(schedule.book_start(12_000, 6000), 1)
        self.assertEqual(schedule.book_start(12_010, 6000), 6)


try:
    import ob  # noqa: E402  (needs psutil and requests, which .ci/run installs)
except ImportError:
    ob = None


class FakeServer:
    """The API answer write_spsa reads, as a local server gives it."""

    def api(self, path, as_json=True):
        text = {'spsa/1/digest/': 'Name,Curr,Start\nlmr_base,75.5616,75\nlmr_div,223.9,225'}[path]
        return types.SimpleNamespace(text=text)


@unittest.skipIf(ob is None, 'psutil or requests is missing')
class SpsaFile(unittest.TestCase):
    def test_snapshots_and_the_last_write_count_the_piece_once(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'spsa-last.txt')
            with open(path, 'w') as f:
                f.write('# an earlier piece\n' + schedule.total_line(600, 150, 1, 2500))
                f.write('lmr_base, int, 74, 25, 150, 8, 0.01\n')
            args = types.SimpleNamespace(spsa_file=path, iterations=2500, pairs_per=2,
                                         prior=schedule.read_totals(path), repo=d)
            lines = ['lmr_base, int, 74, 25, 150, 8, 0.01', 'lmr_div, int, 225, 150, 350, 12, 0.01']
            info = {'games': 40, 'finished': False, 'dev': {'name': 'x'}, 'dev_time_control': '10.0+0.10'}
            ob.write_spsa(args, FakeServer(), 1, info, lines)
            self.assertEqual(schedule.read_totals(path), (640, 160, 2))
            ob.write_spsa(args, FakeServer(), 1, dict(info, games=80, finished=True), lines)
            self.assertEqual(schedule.read_totals(path), (680, 170, 2))
            with open(path) as f:
                values = [l.strip() for l in f if not l.startswith('#')]
            # The server's values, with the whole run's c_end and r_end.
            self.assertEqual(values, ['lmr_base, int, 75.5616, 25, 150, 8, 0.01',
                                      'lmr_div, int, 223.9, 150, 350, 12, 0.01'])


    def test_resumed_lines_keep_their_values_and_take_a_new_r_end(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'spsa-last.txt')
            with open(path, 'w') as f:
                f.write(schedule.total_line(600, 150, 1, 2500) + 'lmr_base, int, 75.5616, 25, 150, 8, 0.002\n')
            args = types.SimpleNamespace(resume=True, spsa_file=path, r_end=None)
            self.assertEqual(ob.spsa_inputs(args), ['lmr_base, int, 75.5616, 25, 150, 8, 0.002'])
            args.r_end = 0.01
            self.assertEqual(ob.spsa_inputs(args), ['lmr_base, int, 75.5616, 25, 150, 8, 0.01'])


if __name__ == '__main__':
    unittest.main()
