#!/usr/bin/env python3
"""Tetrad's workloads through a local OpenBench server and workers (run by run.sh).

run.sh prepares a patched OpenBench checkout, a virtual environment and the
other tools; this script, run with that environment's Python, does the rest:

  1. writes the server's configuration (Config/config.json, Engines/Tetrad.json,
     Books/<book>.json with the book's sha256) and migrates a fresh database;
  2. creates a user whose Profile is enabled and an approver;
  3. serves `git archive --format=zip` of a scratch clone of the repository
     (local-git.patch has the server resolve branches and read `Bench:` there);
  4. starts the server on 127.0.0.1 and creates the workload as a logged-in user
     would, by POSTing OpenBench's own form (/test/new/, /tune/new/, /datagen/new/);
  5. starts the workers (Client/client.py --no-client-downloads), each in its own
     folder with fastchess-ob and the book already in place;
  6. waits for the server to finish the workload, reads its results back from the
     server's API, prints them (the last line is the result), and ends every
     process it started, by id.
"""

import argparse
import bz2
import datetime
import http.server
import io
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time

import psutil
import requests

import spsa_schedule as schedule

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = 'Tetrad'
USERNAME = 'tetrad'
REPO_PLACEHOLDER = 'https://github.com/OWNER/tetrad'  # Engines/Tetrad.json's source; local-git ignores it


def log(*args):
    print('[ob %s]' % time.strftime('%H:%M:%S'), *args, flush=True)


def die(message):
    raise SystemExit('[ob] error: %s' % message)


def git(git_dir, *args, input=None, env=None):
    result = subprocess.run(['git', '--git-dir', git_dir, *args], input=input, capture_output=True,
                            text=True, env=env)
    if result.returncode:
        die('git %s: %s' % (' '.join(args), result.stderr.strip()))
    return result.stdout


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def end_tree(process, grace=10):
    """End a process we started and everything it started, by their ids."""
    try:
        root = psutil.Process(process.pid)
        family = root.children(recursive=True) + [root]
    except psutil.NoSuchProcess:
        return
    for p in family:
        try:
            p.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(family, timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)


# ---------------------------------------------------------------------------
# Sources: a scratch clone, and `git archive` over HTTP


def scratch_clone(repo, workdir):
    """A bare clone sharing the repository's objects: workloads resolve its refs, and
    the SPSA branch is made here, so the repository itself is never written to."""
    git_dir = os.path.join(workdir, 'tetrad.git')
    shutil.rmtree(git_dir, ignore_errors=True)
    subprocess.run(['git', 'clone', '-q', '--bare', '--shared', repo, git_dir], check=True)
    return git_dir


class ArchiveHandler(http.server.BaseHTTPRequestHandler):
    git_dir = None

    def do_GET(self):
        match = re.fullmatch(r'/([0-9a-f]{40})\.zip', self.path)
        if not match:
            return self.send_error(404)
        sha = match.group(1)
        result = subprocess.run(['git', '--git-dir', self.git_dir, 'archive', '--format=zip',
                                 '--prefix=tetrad-%s/' % sha[:8], sha], capture_output=True)
        if result.returncode:
            return self.send_error(404, result.stderr.decode(errors='replace').strip())
        self.send_response(200)
        self.send_header('Content-Type', 'application/zip')
        self.send_header('Content-Length', str(len(result.stdout)))
        self.end_headers()
        self.wfile.write(result.stdout)

    def log_message(self, fmt, *args):
        log('archive:', fmt % args)


def bench_of(git_dir, sha):
    """The `Bench: N` line of the newest commit at or before sha that has one (local-git.patch's rule)."""
    message = git(git_dir, 'log', '-1', '--format=%B', '-E', '--grep=^Bench: [0-9]', sha)
    found = re.findall(r'(?m)^Bench: ([0-9,]+)', message)
    return int(found[-1].replace(',', '')) if found else None


def tune_branch(git_dir, ref, args_bench=None):
    """A branch on ref whose Makefile says `FEATURES ?= tune`: the SPSA build the
    workers' plain `make EXE=...` makes (docs/openbench.md, SPSA)."""
    sha = git(git_dir, 'rev-parse', '--verify', ref + '^{commit}').strip()
    makefile = git(git_dir, 'show', sha + ':Makefile')
    tuned, n = re.subn(r'(?m)^FEATURES \?=.*$', 'FEATURES ?= tune', makefile, count=1)
    if not n:
        die('the Makefile of %s has no `FEATURES ?=` line' % ref)
    blob = git(git_dir, 'hash-object', '-w', '--stdin', input=tuned).strip()
    tree = git(git_dir, 'ls-tree', sha)
    tree = re.sub(r'(?m)^(100644 blob )[0-9a-f]+(\tMakefile)$', r'\g<1>%s\2' % blob, tree)
    tree = git(git_dir, 'mktree', input=tree).strip()
    bench = args_bench or bench_of(git_dir, sha)
    message = 'SPSA build of %s: FEATURES ?= tune\n\nBench: %s\n' % (sha[:8], bench)
    env = dict(os.environ, GIT_AUTHOR_NAME='run.sh', GIT_AUTHOR_EMAIL='run.sh@localhost',
               GIT_COMMITTER_NAME='run.sh', GIT_COMMITTER_EMAIL='run.sh@localhost')
    commit = git(git_dir, 'commit-tree', tree, '-p', sha, '-m', message, env=env).strip()
    branch = 'spsa-tune-' + sha[:8]
    git(git_dir, 'update-ref', 'refs/heads/' + branch, commit)
    return branch


# ---------------------------------------------------------------------------
# The server


class Server:

    def __init__(self, args):
        self.args = args
        self.checkout = args.openbench
        self.python = sys.executable
        self.url = None
        self.process = None
        self.session = None
        self.password = secrets.token_hex(12)

    def manage(self, *argv, input=None):
        result = subprocess.run([self.python, 'manage.py', *argv], cwd=self.checkout, input=input,
                                capture_output=True, text=True)
        if result.returncode:
            die('manage.py %s: %s%s' % (' '.join(argv), result.stdout, result.stderr))
        return result.stdout

    def configure(self, book):
        c = self.checkout
        shutil.copy(os.path.join(HERE, 'config.json'), os.path.join(c, 'Config', 'config.json'))
        shutil.copy(os.path.join(HERE, 'Tetrad.json'), os.path.join(c, 'Engines', 'Tetrad.json'))
        with open(os.path.join(HERE, 'config.json')) as f:
            books = json.load(f)['books']
        if book:
            if os.path.basename(book) not in books:
                die('the book must be named one of %s (config.json)' % books)
            with open(book, 'rb') as f:
                sha = __import__('hashlib').sha256(f.read()).hexdigest()
            # The worker finds the book already in its Books/ folder with this sha256 and
            # does not download; source is where a worker without it would look.
            with open(os.path.join(c, 'Books', os.path.basename(book) + '.json'), 'w') as f:
                json.dump({'sha': sha, 'source': 'file:%s.zip' % os.path.basename(book)}, f, indent=4)
        else:  # the config must load: a placeholder for each listed book
            for name in books:
                path = os.path.join(c, 'Books', name + '.json')
                if not os.path.exists(path):
                    with open(path, 'w') as f:
                        json.dump({'sha': '0' * 64, 'source': 'file:%s.zip' % name}, f)
        for path in ['db.sqlite3', 'Media', 'openbench_watchers.lock']:
            path = os.path.join(c, path)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        self.manage('migrate', '--noinput')
        self.manage('shell', input=(
            'from django.contrib.auth.models import User\n'
            'from OpenBench.models import Profile\n'
            'u = User.objects.create_user(%r, password=%r)\n'
            'Profile.objects.create(user=u, enabled=True, approver=True)\n') % (USERNAME, self.password))
        log('server configured: database migrated, user %s (enabled, approver)' % USERNAME)

    def start(self, git_dir, archive_url, logs):
        port = self.args.port or free_port()
        self.url = 'http://127.0.0.1:%d' % port
        env = dict(os.environ, OPENBENCH_LOCAL_GIT=git_dir, OPENBENCH_LOCAL_ARCHIVE=archive_url)
        self.log = open(os.path.join(logs, 'server.log'), 'w')
        self.process = subprocess.Popen(
            [self.python, 'manage.py', 'runserver', '127.0.0.1:%d' % port, '--noreload'],
            cwd=self.checkout, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(120):
            if self.process.poll() is not None:
                die('the server exited; see %s' % self.log.name)
            try:
                requests.get(self.url + '/login/', timeout=5)
                break
            except requests.RequestException:
                time.sleep(1)
        else:
            die('the server did not answer')
        self.session = requests.Session()
        self.session.get(self.url + '/login/', timeout=30)
        r = self.session.post(self.url + '/login/', timeout=30, allow_redirects=False, data={
            'username': USERNAME, 'password': self.password,
            'csrfmiddlewaretoken': self.session.cookies['csrftoken']})
        if r.headers.get('Location') != '/index/':
            die('login failed')
        log('server up at %s (log %s)' % (self.url, self.log.name))

    def stop(self):
        if self.process:
            end_tree(self.process)
            self.process = None

    def create(self, kind, form):
        """POST OpenBench's creation form; the new workload's id."""
        form = dict(form, csrfmiddlewaretoken=self.session.cookies['csrftoken'])
        r = self.session.post('%s/%s/new/' % (self.url, kind), data=form, timeout=120, allow_redirects=False)
        if r.status_code != 302 or r.headers.get('Location') != '/index/':
            page = self.session.get(self.url + (r.headers.get('Location') or '/index/'), timeout=30).text
            error = re.search(r'error-message.*?<pre>(.*?)</pre>', page, re.S)
            die('the server refused the workload: %s' % (error.group(1).strip() if error else r.status_code))
        page = self.session.get(self.url + '/index/', timeout=30).text
        ids = [int(x) for x in re.findall(r'/(?:test|tune|datagen)/(\d+)/', page)]
        if not ids:
            die('the new workload is not on the index')
        return max(ids)

    def api(self, path, as_json=True):
        r = self.session.get(self.url + '/api/' + path, timeout=60)
        r.raise_for_status()
        return r.json() if as_json else r

    def stop_workload(self, kind, workload):
        self.session.get('%s/%s/%d/STOP/' % (self.url, kind, workload), timeout=30)


# ---------------------------------------------------------------------------
# Workers


class Workers:

    def __init__(self, args, server):
        self.args = args
        self.server = server
        self.processes = []
        self.logs = []

    def start(self, count, threads, book, logs):
        client = os.path.join(self.args.openbench, 'Client')
        for i in range(1, count + 1):
            folder = os.path.join(self.args.workdir, 'workers', 'w%d' % i)
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(os.path.join(folder, 'Books'))
            for name in os.listdir(client):
                if name.endswith('.py'):
                    shutil.copy(os.path.join(client, name), folder)
            # A copy, not a link: the worker chmods fastchess-ob.
            shutil.copy(self.args.fastchess, os.path.join(folder, 'fastchess-ob'))
            if book:
                shutil.copy(book, os.path.join(folder, 'Books', os.path.basename(book)))
            env = dict(os.environ,
                       OPENBENCH_USERNAME=USERNAME, OPENBENCH_PASSWORD=self.server.password,
                       OPENBENCH_SERVER=self.server.url,
                       # One cargo target folder for every build of every worker: the
                       # dependencies are built once (the Makefile's NATIVE_DIR).
                       MAKEFLAGS='NATIVE_DIR=%s' % os.path.join(self.args.workdir, 'cargo-target'),
                       PYTHONUNBUFFERED='1')
            out = open(os.path.join(logs, 'w%d.log' % i), 'w')
            self.logs.append(out.name)
            self.processes.append(subprocess.Popen(
                [sys.executable, 'client.py', '-T', str(threads), '-N', '1', '-I', 'w%d' % i,
                 '--no-client-downloads'],
                cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
            log('worker w%d started: %d thread(s), pid %d, log %s' % (i, threads, self.processes[-1].pid, out.name))

    def alive(self):
        return [p for p in self.processes if p.poll() is None]

    def stop(self):
        for p in self.processes:
            end_tree(p)
        self.processes = []

    def binary(self, sha):
        """The dev engine as worker 1 built it (Client/utils.py engine_binary_name)."""
        path = os.path.join(self.args.workdir, 'workers', 'w1', 'Engines', '%s-%s' % (ENGINE, sha.upper()[:8]))
        return path if os.path.exists(path) else None


# ---------------------------------------------------------------------------
# Workloads


def common_form(args, tc, base_tc=None):
    nps = json.load(open(os.path.join(HERE, 'Tetrad.json')))['nps']
    form = {
        'dev_engine': ENGINE, 'dev_repo': REPO_PLACEHOLDER, 'dev_branch': args.dev, 'dev_bench': args.dev_bench or '',
        'dev_network': '', 'dev_options': args.options, 'dev_time_control': tc,
        'base_engine': ENGINE, 'base_repo': REPO_PLACEHOLDER, 'base_branch': args.base, 'base_bench': args.base_bench or '',
        'base_network': '', 'base_options': args.options, 'base_time_control': base_tc or tc,
        'priority': '0', 'throughput': '1000', 'syzygy_wdl': 'DISABLED', 'syzygy_adj': 'DISABLED',
        'scale_method': 'BASE', 'scale_nps': str(nps), 'info': args.info or '',
    }
    return form


def sprt_form(args):
    form = common_form(args, args.tc, args.base_tc)
    form.update({
        'book_name': os.path.basename(args.book), 'upload_pgns': 'FALSE', 'test_mode': 'SPRT',
        'test_bounds': args.bounds, 'test_confidence': args.confidence, 'test_max_games': '',
        'workload_size': str(args.workload_size),
        'win_adj': 'movecount=4 score=800', 'draw_adj': 'movenumber=40 movecount=8 score=10',
    })
    return form


def spsa_inputs(args):
    """The SPSA input lines: spsa-last.txt's with --resume, else `tetrad tune-params`'s."""
    if args.resume:
        if not os.path.exists(args.spsa_file):
            die('--resume: %s does not exist' % args.spsa_file)
        with open(args.spsa_file) as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith('#')]
    else:
        tetrad = args.tetrad or os.path.join(args.repo, 'target', 'release', 'tetrad')
        if not os.path.exists(tetrad):
            die('tune-params needs a tetrad binary: --tetrad PATH (or cargo build --release)')
        out = subprocess.run([tetrad, 'tune-params'], capture_output=True, text=True, check=True).stdout
        table = {l.split(',')[0].strip(): l.strip() for l in out.splitlines() if l.count(',') == 6}
        missing = [p for p in args.params if p not in table]
        if missing:
            die('not tunable: %s (see tetrad tune-params)' % ', '.join(missing))
        lines = [table[p] for p in args.params]
    if args.r_end is not None:
        # OpenBench's r_end is the seventh field of each line.
        lines = [', '.join([f.strip() for f in l.split(',')][:6] + [repr(args.r_end)]) for l in lines]
    return lines


def spsa_form(args, branch, lines, held):
    form = common_form(args, args.tc)
    form.update({
        'dev_branch': branch,
        'spsa_inputs': '\n'.join(lines), 'spsa_reporting_type': 'BATCHED', 'spsa_distribution_type': 'SINGLE',
        # A resumed piece holds its gains constant (spsa_schedule.piece_lines).
        'spsa_alpha': str(schedule.HELD if held else schedule.ALPHA),
        'spsa_gamma': str(schedule.HELD if held else schedule.GAMMA), 'spsa_A_ratio': str(schedule.A_RATIO),
        'spsa_iterations': str(args.iterations), 'spsa_pairs_per': str(args.pairs_per),
        'book_name': os.path.basename(args.book), 'upload_pgns': 'FALSE',
        'win_adj': 'movecount=4 score=800', 'draw_adj': 'movenumber=40 movecount=8 score=10',
    })
    return form


def datagen_form(args):
    form = common_form(args, args.tc)
    form.update({
        'book_name': 'NONE', 'upload_pgns': 'COMPACT', 'workload_size': str(args.workload_size),
        'datagen_max_games': str(args.games), 'datagen_custom_genfens': '', 'datagen_play_reverses': 'NO',
        'win_adj': 'None', 'draw_adj': 'None',
    })
    return form


def wait(args, server, workers, kind, workload, every=None):
    """Poll the server until the workload finishes (or --max-games, --timeout); `every`, if
    given, is called with the workload's info every --snapshot minutes."""
    start, last, stopped = time.time(), None, False
    snapshot = time.time()
    while True:
        info = server.api('workload/%d/info/' % workload)['info']
        if every and time.time() - snapshot > args.snapshot * 60:
            try:
                every(info)
            except (OSError, requests.RequestException, ValueError, KeyError) as e:
                log('snapshot failed (the run goes on): %s' % e)
            snapshot = time.time()
        line = '%d games, penta %s' % (info['games'], list(info['penta']))
        if info['test_mode'] == 'SPRT':
            line += ', LLR %.2f (%.2f, %.2f)' % (info['currentllr'], info['lowerllr'], info['upperllr'])
        if line != last:
            log('workload %d: %s' % (workload, line))
            last = line
        if info['finished']:
            return info, stopped
        # --max-games and --timeout stop the workload and report what the server has:
        # a long SPRT cut short is still a result (its LLR inside the bounds).
        limit = ('--max-games %d' % args.max_games if args.max_games and info['games'] >= args.max_games
                 else '--timeout %d min' % args.timeout if time.time() - start > args.timeout * 60 else None)
        if limit and not stopped:
            log('workload %d: %s reached at %d games before the server ended it: stopping it' %
                (workload, limit, info['games']))
            server.stop_workload(kind, workload)
            stopped = limit
            continue
        if stopped and time.time() - start > args.timeout * 60 + 120:
            die('the server did not mark workload %d finished after STOP' % workload)
        if not workers.alive():
            die('every worker exited; see %s' % ', '.join(workers.logs))
        time.sleep(10)


def per_machine(server, workload):
    """The server's per-machine rows (/api/workload/ID/results/), named as each worker's -I."""
    rows = server.api('workload/%d/results/' % workload)['results']
    names = json.loads(server.manage('shell', input=(
        'import json\nfrom OpenBench.models import Machine\n'
        'print(json.dumps({m.id: m.info.get("machine_name") for m in Machine.objects.all()}))\n')).strip())
    return ', '.join('machine %d (%s): %d games, penta (%s), %d time losses, %d crashes' % (
        r['machine__id'], names.get(str(r['machine__id']), '?'), r['games'],
        ' '.join(str(r[k]) for k in ['LL', 'LD', 'DD', 'DW', 'WW']), r['timeloss'], r['crashes'])
        for r in sorted(rows, key=lambda r: r['machine__id']))


def tcs(info):
    dev, base = info['dev_time_control'], info['base_time_control']
    return dev if dev == base else '%s vs %s' % (dev, base)


def finish_sprt(args, server, workers, workload, info, stopped):
    summary = server.api('workload/%d/summary/' % workload)['summary']
    elo = summary['user'][0]['elo'] if summary['user'] else 'n/a'
    machines = per_machine(server, workload)
    log('per machine: %s' % machines)
    verdict = 'H1 accepted (passed)' if info['passed'] else 'H0 accepted (failed)' if info['failed'] else \
        'stopped at %s, LLR inside the bounds' % stopped
    if info['games'] == 0:
        die('the workload ended without games: a bad bench or build? see the worker logs %s' % workers.logs)
    return ('OpenBench SPRT #%d %s vs %s, %s, %s nElo: %s; LLR %.2f (%.2f, %.2f); %d games, penta %s; '
            'Elo %s; %s' % (workload, info['dev']['name'], info['base']['name'], tcs(info), args.bounds,
                            verdict, info['currentllr'], info['lowerllr'], info['upperllr'], info['games'],
                            list(info['penta']), elo, machines))


def write_spsa(args, server, workload, info, lines):
    """Writes the server's current values to --spsa-file (spsa-last.txt) in OpenBench's input
    form, with the whole run's c_end and r_end and the games and iterations of every piece so
    far (round them into params.rs when the run ends); returns the values and the digest."""
    digest = server.api('spsa/%d/digest/' % workload, as_json=False).text
    current = {row.split(',')[0]: float(row.split(',')[1]) for row in digest.splitlines()[1:]}
    tuned = []
    for line in lines:
        fields = [f.strip() for f in line.split(',')]
        fields[2] = ('%.4f' % current[fields[0]]).rstrip('0').rstrip('.')
        tuned.append(', '.join(fields))
    when = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    # This piece adds to what the resumed values had taken (read once, at the start).
    games, done, pieces = args.prior
    games, done, pieces = games + info['games'], done + info['games'] // (2 * args.pairs_per), pieces + 1
    with open(args.spsa_file, 'w') as f:
        f.write('# OpenBench SPSA (tools/openbench/run.sh spsa), %s: %s, %s,\n' % (
            when, info['dev']['name'], info['dev_time_control']))
        f.write('# this piece: %d games%s, %d pairs a batch.\n' % (
            info['games'], '' if info['finished'] else ' so far (running)', args.pairs_per))
        f.write(schedule.total_line(games, done, pieces, args.iterations))
        f.write('# `run.sh spsa --resume` starts the next run from these lines (OpenBench input form).\n')
        f.write('\n'.join(tuned) + '\n')
    return current, digest


def finish_spsa(args, server, workload, info, lines):
    current, digest = write_spsa(args, server, workload, info, lines)
    log('server digest:\n' + digest)
    starts = {l.split(',')[0].strip(): l.split(',')[2].strip() for l in lines}
    moves = ', '.join('%s %s -> %.2f' % (n, starts[n], v) for n, v in current.items())
    return ('OpenBench SPSA #%d %s, %s, %d games (%d iterations x %d pairs): %s; written to %s' % (
        workload, info['dev']['name'], info['dev_time_control'], info['games'], args.iterations,
        args.pairs_per, moves, os.path.relpath(args.spsa_file, args.repo)))


def finish_datagen(args, server, workers, workload, info, run_dir):
    tetrad = args.tetrad or workers.binary(info['dev']['sha'])
    workers.stop()  # the server hands out PGNs once no machine is still on the workload
    log('workers ended; waiting for the server to release the PGNs (it waits 2 minutes after the last report)')
    deadline = time.time() + 600
    while True:
        r = server.api('pgns/%d/' % workload, as_json=False)
        if r.headers.get('Content-Type', '').startswith('application/octet-stream'):
            break
        if time.time() > deadline:
            die('no PGNs: %s' % r.text)
        time.sleep(15)
    pgn_dir = os.path.join(run_dir, 'pgns')
    os.makedirs(pgn_dir, exist_ok=True)
    with open(os.path.join(run_dir, '%d.pgn.tar' % workload), 'wb') as f:
        f.write(r.content)
    pgns = []
    with tarfile.open(fileobj=io.BytesIO(r.content)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith('.pgn.bz2'):
                name = os.path.join(pgn_dir, os.path.basename(member.name)[:-4])
                with open(name, 'wb') as out:
                    out.write(bz2.decompress(tar.extractfile(member).read()))
                pgns.append(name)
    log('downloaded /api/pgns/%d/: %d PGN files' % (workload, len(pgns)))
    if not tetrad:
        die('no tetrad binary to read the PGNs (--tetrad PATH)')
    shards = os.path.join(run_dir, 'shards')
    shutil.rmtree(shards, ignore_errors=True)
    out = subprocess.run([tetrad, 'datagen', '--from-pgn', *sorted(pgns), '--out', shards],
                         capture_output=True, text=True)
    if out.returncode:
        die('datagen --from-pgn: %s' % out.stderr)
    summary = [l for l in out.stdout.splitlines() if l.strip()][-1]
    log('datagen --from-pgn: %s' % summary)
    net = os.path.join(run_dir, 'ob%d.tnn' % workload)
    train = subprocess.run([tetrad, 'train', '--data', shards, '--out', net, '--epochs', '1', '--init', 'builtin',
                            '--threads', '1'], capture_output=True, text=True)
    if train.returncode:
        die('train: %s' % train.stderr)
    trained = [l for l in train.stderr.splitlines() if l.startswith('epoch 1/1:')][-1]
    log('train: %s' % trained)
    return ('OpenBench DATAGEN #%d %s, %s: %d games (server), %d PGN file(s); datagen --from-pgn: %s; '
            'train --epochs 1: %s' % (workload, info['dev']['name'], info['dev_time_control'], info['games'],
                                      len(pgns), summary.strip(), trained.strip()))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('mode', choices=['sprt', 'spsa', 'datagen'])
    p.add_argument('--workdir', required=True)
    p.add_argument('--openbench', required=True, help='the patched OpenBench checkout')
    p.add_argument('--repo', required=True, help="Tetrad's repository")
    p.add_argument('--fastchess', required=True)
    p.add_argument('--book', help='the opening book (sprt, spsa)')
    p.add_argument('--workers', type=int, default=1)
    p.add_argument('--threads', type=int, help='threads per worker (1; SPSA plays a pair at a time: 2)')
    p.add_argument('--dev', default='HEAD')
    p.add_argument('--base', help='sprt: HEAD~1; datagen: the dev')
    p.add_argument('--dev-bench', type=int, help="the dev's bench (default: its or its newest ancestor's `Bench:` line)")
    p.add_argument('--base-bench', type=int, help="the base's bench (the same)")
    p.add_argument('--tc', help='sprt 2.0+0.02, spsa N=8000, datagen N=5000')
    p.add_argument('--base-tc', help='sprt: the base engine time control (time odds), default the same')
    p.add_argument('--options', default='Threads=1 Hash=16')
    p.add_argument('--bounds', default='[0.00, 10.00]')
    p.add_argument('--confidence', default='[0.05, 0.05]')
    p.add_argument('--max-games', type=int, default=0, help='sprt: stop the test here if the SPRT has not ended')
    p.add_argument('--workload-size', type=int, help="OpenBench's workload size (sprt 8, datagen 32): a worker takes 4x (sprt) or 2x (datagen) "
                   'this many games per game slot at a time')
    p.add_argument('--games', type=int, default=64, help='datagen: games')
    p.add_argument('--params', default='lmr_base,lmr_div', help='spsa: tunables from tetrad tune-params')
    p.add_argument('--iterations', type=int, default=10)
    p.add_argument('--pairs-per', type=int, default=4)
    p.add_argument('--resume', action='store_true', help='spsa: start from --spsa-file')
    p.add_argument('--snapshot', type=float, default=15,
                   help='spsa: minutes between writes of the values so far to --spsa-file')
    p.add_argument('--r-end', type=float, help="spsa: every line's r_end (OpenBench's learning rate at the end; "
                   "tune-params says 0.002, which moves little in a few thousand iterations)")
    p.add_argument('--spsa-file', help='spsa: where the tuned values go (tools/openbench/spsa-last.txt)')
    p.add_argument('--tetrad', help='a tetrad binary for tune-params, datagen --from-pgn and train')
    p.add_argument('--info', help='the workload notes')
    p.add_argument('--port', type=int, default=0)
    p.add_argument('--timeout', type=int, default=180, help='minutes, then the workload is stopped and reported as --max-games does')
    args = p.parse_args()

    args.workdir = os.path.abspath(args.workdir)
    args.repo = os.path.abspath(args.repo)
    args.params = [x.strip() for x in args.params.split(',') if x.strip()]
    args.spsa_file = os.path.abspath(args.spsa_file or os.path.join(HERE, 'spsa-last.txt'))
    # Games, iterations and pieces the resumed values already took (the iterations: where this
    # piece enters the schedule).
    args.prior = schedule.read_totals(args.spsa_file) if args.mode == 'spsa' and args.resume and \
        os.path.exists(args.spsa_file) else (0, 0, 0)
    args.base = args.base or ('HEAD~1' if args.mode == 'sprt' else args.dev)
    args.tc = args.tc or {'sprt': '2.0+0.02', 'spsa': 'N=8000', 'datagen': 'N=5000'}[args.mode]
    args.threads = args.threads or (2 if args.mode == 'spsa' else 1)
    args.workload_size = args.workload_size or (32 if args.mode == 'datagen' else 8)
    if args.mode != 'datagen' and not args.book:
        die('%s needs --book' % args.mode)
    book = os.path.abspath(args.book) if args.book and args.mode != 'datagen' else None

    logs = os.path.join(args.workdir, 'logs')
    os.makedirs(logs, exist_ok=True)
    run_dir = os.path.join(args.workdir, 'runs', '%s-%s' % (args.mode, time.strftime('%Y%m%d-%H%M%S')))
    os.makedirs(run_dir, exist_ok=True)

    # SIGTERM and SIGHUP end the run the way Ctrl-C does, through the clean-up below.
    def interrupt(*_):
        raise KeyboardInterrupt()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupt)

    server = Server(args)
    workers = Workers(args, server)
    archive = result = None
    try:
        server.configure(book)
        git_dir = scratch_clone(args.repo, args.workdir)
        ArchiveHandler.git_dir = git_dir
        archive = http.server.ThreadingHTTPServer(('127.0.0.1', 0), ArchiveHandler)
        threading.Thread(target=archive.serve_forever, daemon=True).start()
        archive_url = 'http://127.0.0.1:%d' % archive.server_address[1]
        log('sources: %s (a shared clone of %s) as git archive at %s' % (git_dir, args.repo, archive_url))
        server.start(git_dir, archive_url, logs)

        if args.mode == 'sprt':
            kind, workload = 'test', server.create('test', sprt_form(args))
        elif args.mode == 'spsa':
            lines, done = spsa_inputs(args), args.prior[1]
            sent = schedule.piece_lines(lines, done, args.iterations) if done else lines
            branch = tune_branch(git_dir, args.dev, args.dev_bench)
            log('SPSA branch %s (%s with FEATURES ?= tune); inputs%s:\n  %s' % (
                branch, args.dev, ' (the gains of iteration %d, held)' % (done + 1) if done else '',
                '\n  '.join(sent)))
            kind, workload = 'tune', server.create('tune', spsa_form(args, branch, sent, held=done > 0))
            if args.prior[0]:
                with open(book) as f:
                    start = schedule.book_start(args.prior[0], sum(1 for l in f if l.strip()))
                server.manage('shell', input='from OpenBench.models import Test\n'
                              'Test.objects.filter(id=%d).update(book_index=%d)\n' % (workload, start))
                log('book: from opening %d of its shuffle, after the run\'s %d games' % (start, args.prior[0]))
        else:
            kind, workload = 'datagen', server.create('datagen', datagen_form(args))
        info = server.api('workload/%d/info/' % workload)['info']
        log('workload %d created: %s (%s) vs %s (%s), bench %d / %d, approved %s' % (
            workload, info['dev']['name'], info['dev']['sha'][:8], info['base']['name'], info['base']['sha'][:8],
            info['dev']['bench'], info['base']['bench'], info['approved']))

        workers.start(args.workers, args.threads, book, logs)
        # An SPSA writes its values as it goes: a session that ends mid-piece keeps them.
        every = None
        if args.mode == 'spsa':
            def every(info):
                write_spsa(args, server, workload, info, lines)
                log('values so far written to %s' % os.path.relpath(args.spsa_file, args.repo))
        info, stopped = wait(args, server, workers, kind, workload, every)
        if info['games'] == 0:
            die('workload %d ended without games (bad bench or build?); see %s and %s/errors/' %
                (workload, ', '.join(workers.logs), server.url))

        if args.mode == 'sprt':
            result = finish_sprt(args, server, workers, workload, info, stopped)
        elif args.mode == 'spsa':
            result = finish_spsa(args, server, workload, info, lines)
        else:
            result = finish_datagen(args, server, workers, workload, info, run_dir)
    except KeyboardInterrupt:
        log('interrupted')
        raise SystemExit(130)
    finally:
        workers.stop()
        server.stop()
        if archive:
            archive.shutdown()
        log('torn down: workers, server and archive server ended')
    # The result the server computed, as the last line.
    print(result, flush=True)


if __name__ == '__main__':
    main()
