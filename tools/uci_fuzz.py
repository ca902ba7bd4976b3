#!/usr/bin/env python3
"""Random input against a UCI engine's input loop: does it stay up and answer?

Sends COMMANDS random lines (token salad, broken and sound FENs with moves, `go`
with odd limits, `setoption` with odd values, stops, ponders), and every 20 lines
`stop` + `isready`: the engine must answer every `isready` (ours and the random
ones) within a generous bound, never exit, and quit cleanly at the end.
On a failure it prints the last lines sent and exits 1.

With --legal N it instead sends N random legal positions (random playouts from the
start or a Chess960 start, as a FEN or as the game's moves) with a small `go nodes`,
and checks with python-chess that every bestmove and ponder move is legal there.

usage: tools/uci_fuzz.py [--engine PATH] [--seed N] [--commands N] [--legal N]
"""
import argparse
import queue
import random
import subprocess
import sys
import threading
import time

TOKENS = ['uci', 'isready', 'ucinewgame', 'position', 'startpos', 'fen', 'moves', 'go', 'depth', 'nodes',
          'movetime', 'wtime', 'btime', 'winc', 'binc', 'movestogo', 'infinite', 'ponder', 'ponderhit', 'stop',
          'setoption', 'name', 'value', 'Hash', 'Threads', 'MultiPV', 'UCI_Chess960', 'UCI_LimitStrength',
          'UCI_Elo', 'SyzygyPath', 'EvalFile', 'Move Overhead', 'Clear Hash', 'debug', 'on', 'off', 'register',
          'e2e4', 'e7e8q', 'a1a1', '0000', 'e1g1', '-1', '0', '1', '99999999999999999999', 'NaN', '\x00', '\t',
          '8/8/8/8/8/8/8/8 w - - 0 1', 'k7/8/8/8/8/8/8/7K', 'bench', 'perft', 'd', 'eval', 'searchmoves', 'mate',
          '2147483648', '18446744073709551616']
OPTIONS = ['Hash', 'Threads', 'MultiPV', 'UCI_Elo', 'UCI_LimitStrength', 'UCI_Chess960', 'Move Overhead', 'Skill',
           'SyzygyPath', 'EvalFile', 'Clear Hash']
VALUES = ['1', '0', '-1', '2', '64', '4', '3000', 'true', 'false', 'x', '', '/nonexistent', '/dev/null',
          '99999999999']
GO_KEYS = ['depth', 'nodes', 'movetime', 'wtime', 'btime', 'winc', 'movestogo', 'mate']
GO_VALUES = ['1', '2', '5', '0', '-3', '100', '1000', 'x', '99999999999999999999', '']
MOVES = ['e2e4', 'e7e5', 'g1f3', 'a7a8q', 'e1g1', 'e8c8', 'h2h1n']
FENS = ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
        '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', '8/P1k5/K7/8/8/8/8/8 w - - 0 1',
        '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1', '7k/8/8/8/8/8/8/K7 w - - 99 120']


def random_line(rng):
    r = rng.random()
    if r < 0.3:
        return ' '.join(rng.choice(TOKENS) for _ in range(rng.randint(1, 8)))
    if r < 0.5:
        fields = rng.choice(FENS).split()
        if rng.random() < 0.5:
            i = rng.randrange(len(fields))
            fields[i] = ''.join(rng.choice('pnbrqkPNBRQK12345678/-wbKQkqa3h6 ') for _ in range(rng.randint(0, 20)))
        line = 'position fen ' + ' '.join(fields)
        if rng.random() < 0.5:
            line += ' moves ' + ' '.join(rng.choice(MOVES) for _ in range(rng.randint(0, 5)))
        return line
    if r < 0.7:
        return f'go {rng.choice(GO_KEYS)} {rng.choice(GO_VALUES)}'
    if r < 0.85:
        return f'setoption name {rng.choice(OPTIONS)} value {rng.choice(VALUES)}'
    return rng.choice(['stop', 'isready', 'ucinewgame', 'ponderhit', 'position startpos moves e2e4 e7e5',
                       'go infinite', 'go ponder movetime 10'])


def start_engine(engine):
    """The engine under test, spoken to over pipes a line at a time, and a queue of its output
    lines (None once it exits), read by a thread so that a hung engine can be told from a slow one."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, bufsize=1, errors='replace')
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in p.stdout] + [lines.put(None)], daemon=True).start()
    return p, lines


def output(lines, seconds=120):
    """The engine's output lines from `start_engine`'s queue as they come (None once it exits),
    for at most `seconds`: a hang guard, not a speed test."""
    end = time.time() + seconds
    while time.time() < end:
        try:
            yield lines.get(timeout=1)
        except queue.Empty:
            pass


def legal_moves_only(engine, rng, count):
    """Random legal positions; every bestmove and ponder move must be legal. Returns the failures."""
    import chess
    p, lines = start_engine(engine)

    def send(line):
        try:
            p.stdin.write(line + '\n')
            p.stdin.flush()
        except BrokenPipeError:
            sys.exit(f'FAILED: the engine exited with {p.wait()}')

    def bestmove():
        for line in output(lines):  # the searches are at most 2,000 nodes
            if line is None:
                sys.exit('FAILED: the engine exited')
            if line.startswith('bestmove'):
                return line.split()
        sys.exit('FAILED: no bestmove within 120 s')

    bad = 0
    for _ in range(count):
        c960 = rng.random() < 0.3
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if c960 else chess.Board()
        start, ucis = board.fen(), []
        for _ in range(rng.randint(0, 120)):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            ucis.append(board.uci(move, chess960=c960))
            board.push(move)
        if board.is_game_over():
            continue
        send(f'setoption name UCI_Chess960 value {"true" if c960 else "false"}')
        if rng.random() < 0.5:
            send(f'position fen {start} moves {" ".join(ucis)}')
        else:
            send(f'position fen {board.fen()}')
        send(f'go nodes {rng.choice([1, 50, 300, 2000])}')
        words = bestmove()
        try:
            move = board.parse_uci(words[1])  # a null move "0000" parses: test it among the legal ones
            if move not in board.legal_moves:
                raise ValueError(words[1])
            board.push(move)
            if len(words) >= 4 and not board.is_game_over() and board.parse_uci(words[3]) not in board.legal_moves:
                raise ValueError(words[3])
        except (ValueError, IndexError):
            bad += 1
            print(f'ILLEGAL {" ".join(words)} in {board.fen()} (chess960 {c960})')
    send('quit')
    p.wait(120)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--engine', default='target/release/tetrad')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--commands', type=int, default=2000)
    ap.add_argument('--legal', type=int, default=0, metavar='N')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.legal:
        bad = legal_moves_only(args.engine, rng, args.legal)
        print(f'{"FAILED" if bad else "ok"}: {args.legal} random legal positions, seed {args.seed}, {bad} illegal answers')
        sys.exit(1 if bad else 0)
    p, lines = start_engine(args.engine)
    sent = []
    pending = 0  # isready lines not yet answered

    def send(line):
        nonlocal pending
        sent.append(line)
        p.stdin.write(line + '\n')
        p.stdin.flush()
        if line.split()[:1] == ['isready']:
            pending += 1

    def answered():
        nonlocal pending
        send('stop')
        send('isready')
        for line in output(lines):  # a random `bench` takes seconds
            if line is None:
                return False
            if line.strip() == 'readyok':
                pending -= 1
                if pending == 0:
                    return True
        return False

    def fail(what):
        print(f'FAILED ({what}) after {len(sent)} lines, seed {args.seed}; the last ones:')
        print('\n'.join(repr(s) for s in sent[-30:]))
        p.kill()
        sys.exit(1)

    for i in range(args.commands):
        line = random_line(rng)
        try:
            send(line)
        except BrokenPipeError:
            fail(f'engine exited with {p.wait()}')
        if line.startswith('go'):
            time.sleep(0.02)
        if i % 20 == 19 and not answered():
            fail('exited' if p.poll() is not None else 'no readyok')
    if not answered():
        fail('no readyok at the end')
    send('quit')
    try:
        code = p.wait(120)
    except subprocess.TimeoutExpired:
        fail('quit not obeyed')
    if code != 0:
        fail(f'exit status {code}')
    print(f'ok: {len(sent)} lines, seed {args.seed}, every isready answered, clean quit')


if __name__ == '__main__':
    main()
