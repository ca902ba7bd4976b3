#!/usr/bin/env bash
# Tetrad's SPRT, SPSA or DATAGEN through a local OpenBench server and workers,
# brought up and torn down by this one script (docs/openbench.md, "Running it
# locally"). The last line it prints is the result the server computed.
#
#   tools/openbench/run.sh sprt    [--dev HEAD] [--base HEAD~1] [--tc 2.0+0.02] [--bounds '[0.00, 10.00]'] [--workers 2]
#   tools/openbench/run.sh spsa    [--params lmr_base,lmr_div] [--iterations 10] [--pairs-per 4] [--r-end R] [--resume]
#   tools/openbench/run.sh datagen [--games 64] [--tc N=5000]
#
# Set-up options (the rest go to ob.py; `run.sh sprt --help` lists them):
#   --workdir DIR     where OpenBench, its virtual environment, database, workers and logs go
#                     (default ${XDG_CACHE_HOME:-~/.cache}/tetrad-openbench); outside the repository
#   --openbench DIR   a clone of OpenBench holding commit 9906bad (for machines without
#                     GitHub); otherwise it is cloned from GitHub
#   --fastchess PATH  fastchess >= 1.8.1; otherwise `fastchess` on PATH, else built from GitHub
#   --book FILE       the opening book, named noob6k.epd (default: made from
#                     ../shared/data/book_noob_3moves.epd as docs/testing.md shows)
#
# Nothing of OpenBench is kept in the repository: local-git.patch (the server resolves
# branches, reads `Bench:` and serves sources from a local git repository; the worker
# ends only the processes it started, by id), config.json and Tetrad.json are ours.
set -euo pipefail

OPENBENCH_URL=https://github.com/AndyGrant/OpenBench
OPENBENCH_COMMIT=9906bad18e044c4b455539317b8cf037393a7218
FASTCHESS_URL=https://github.com/Disservin/fastchess
FASTCHESS_MIN=1.8.1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

workdir=${XDG_CACHE_HOME:-$HOME/.cache}/tetrad-openbench
usage() {
    sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    # The workload options are ob.py's; it needs the virtual environment run.sh makes.
    [ -x "$workdir/venv/bin/python" ] && "$workdir/venv/bin/python" "$here/ob.py" --help | sed -n '/^positional/,$p'
    exit "${1:-0}"
}
[ $# -ge 1 ] || usage 2
mode=$1; shift
case $mode in sprt|spsa|datagen) ;; -h|--help) usage 0 ;; *) echo "run.sh: unknown workload '$mode'" >&2; usage 2 ;; esac

openbench= fastchess= book=
rest=()
while [ $# -gt 0 ]; do
    case $1 in
        --workdir)   workdir=$2; shift 2 ;;
        --openbench) openbench=$2; shift 2 ;;
        --fastchess) fastchess=$2; shift 2 ;;
        --book)      book=$2; shift 2 ;;
        -h|--help)   usage 0 ;;
        *)           rest+=("$1"); shift ;;
    esac
done
mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
say() { echo "[run.sh] $*"; }

# 1. OpenBench at the pinned commit, patched, in a fresh checkout every run.
if [ -z "$openbench" ]; then
    openbench=$workdir/openbench-src
    if [ ! -d "$openbench/.git" ] && [ ! -d "$openbench/objects" ]; then
        say "cloning $OPENBENCH_URL"
        git clone -q "$OPENBENCH_URL" "$openbench"
    fi
fi
git -C "$openbench" cat-file -e "$OPENBENCH_COMMIT^{commit}" 2>/dev/null \
    || { echo "run.sh: $openbench does not have OpenBench commit $OPENBENCH_COMMIT" >&2; exit 1; }
checkout=$workdir/openbench
rm -rf "$checkout"
git clone -q --no-checkout "$openbench" "$checkout"
git -C "$checkout" -c advice.detachedHead=false checkout -q "$OPENBENCH_COMMIT"
git -C "$checkout" apply "$here/local-git.patch"
say "OpenBench ${OPENBENCH_COMMIT:0:7} checked out in $checkout with local-git.patch"

# 2. The server's and the client's Python packages, from PyPI, in a virtual environment.
venv=$workdir/venv
stamp=$(cat "$checkout/requirements.txt" "$checkout/Client/requirements.txt" | sha256sum | cut -c1-16)
if [ "$(cat "$venv/.tetrad-stamp" 2>/dev/null)" != "$stamp" ]; then
    say "installing OpenBench's requirements into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$checkout/requirements.txt" -r "$checkout/Client/requirements.txt"
    echo "$stamp" > "$venv/.tetrad-stamp"
fi

# 3. fastchess >= 1.8.1 (the worker's Client/fastchess-ob).
version_ok() {
    local v
    v=$("$1" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -1) || return 1
    [ -n "$v" ] && [ "$(printf '%s\n%s\n' "$FASTCHESS_MIN" "$v" | sort -V | head -1)" = "$FASTCHESS_MIN" ]
}
if [ -z "$fastchess" ]; then
    for candidate in "$(command -v fastchess || true)" "$workdir/fastchess/fastchess"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ] && version_ok "$candidate"; then fastchess=$candidate; break; fi
    done
fi
if [ -z "$fastchess" ]; then
    say "building fastchess from $FASTCHESS_URL"
    rm -rf "$workdir/fastchess"
    git clone -q --depth 1 "$FASTCHESS_URL" "$workdir/fastchess"
    make -C "$workdir/fastchess" -j "$(nproc)" >/dev/null
    fastchess=$workdir/fastchess/fastchess
fi
version_ok "$fastchess" || { echo "run.sh: $fastchess is not fastchess >= $FASTCHESS_MIN" >&2; exit 1; }
fastchess=$(cd "$(dirname "$fastchess")" && pwd)/$(basename "$fastchess")

# 4. The book (SPRT and SPSA): noob6k, 6,000 lines of book_noob_3moves.epd.
args=()
if [ "$mode" != datagen ]; then
    if [ -z "$book" ]; then
        book=$workdir/noob6k.epd
        if [ ! -s "$book" ]; then
            source_book=$repo/../shared/data/book_noob_3moves.epd
            [ -f "$source_book" ] || { echo "run.sh: no --book and no $source_book" >&2; exit 1; }
            shuf -n 6000 --random-source=<(yes) "$source_book" > "$book"
        fi
    fi
    args+=(--book "$book")
fi

say "fastchess $fastchess; workdir $workdir"
exec "$venv/bin/python" "$here/ob.py" "$mode" --workdir "$workdir" --openbench "$checkout" --repo "$repo" \
    --fastchess "$fastchess" "${args[@]}" "${rest[@]}"
