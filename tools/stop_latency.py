#!/usr/bin/env python3
"""Measures the time from `stop` to `bestmove` during `go infinite`.

Usage: tools/stop_latency.py [--engine PATH] [--tries N] [--threads 1 2]
Prints median and max latency (ms) per thread count.
"""
import argparse, random, statistics, subprocess, time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tetrad")
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--fen", default=None, help="position (default: start position)")
    args = ap.parse_args()
    rng = random.Random(1)
    for threads in args.threads:
        p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

        def send(s):
            p.stdin.write(s + "\n")
            p.stdin.flush()

        def until(prefix):
            while True:
                line = p.stdout.readline()
                if not line:
                    raise SystemExit("engine closed its output")
                if line.startswith(prefix):
                    return line

        send("uci"); until("uciok")
        send(f"setoption name Threads value {threads}")
        send("isready"); until("readyok")
        lat = []
        for _ in range(args.tries):
            send("position " + (f"fen {args.fen}" if args.fen else "startpos"))
            send("go infinite")
            time.sleep(rng.uniform(0.2, 0.6))
            t0 = time.perf_counter()
            send("stop")
            until("bestmove")
            lat.append((time.perf_counter() - t0) * 1000)
        send("quit")
        p.wait()
        print(f"threads {threads}: tries {len(lat)} median {statistics.median(lat):.2f} ms "
              f"max {max(lat):.2f} ms min {min(lat):.2f} ms")


if __name__ == "__main__":
    main()
