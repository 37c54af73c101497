#!/usr/bin/env python3
"""Coup strength table: `coup-bot` against each opponent under the original rules.

Runs ../shared/coup/arbiter3.py (the faithful port of the contest's arbiter) once per
opponent, ROUNDS rounds = 2*ROUNDS games, both seats, fixed seed, and prints one row per
opponent: wins, win rate with its 95% Wilson interval, forfeits (from the arbiter's log),
draws, and the mean / max wall time per call of each bot (process start included).

Opponents: the stand-ins of ../shared/coup/standin.py, the project's sparring strategies
(`coup-bot --strategy NAME`), and the real contest winner Calculator when COUP_CALCULATOR
names its file (run with PYTHON2, default ~/.pyenv/versions/2.7.18/bin/python2, from its own
folder), and Seer (../shared/coup/seer, an independent search bot) when COUP_SEER names its
built program. Opponents that are absent are skipped with a message.

Exploiter (measurement only) is the best-response exploiter of our bot (src/coup/exploit.rs): the
program coup-exploiter beside --bot (built with `cargo build --release --features measure --bins`)
or the one COUP_EXPLOITER names, told our bot's folder in the run (--target-dir) so that it models
our bot with the memory our bot keeps there (with --fresh, without memory, as our bot then
plays). Its row is our bot's rate against it: one minus that row's rate (less draws) is how
exploitable our bot is. The same exploiter against another opponent is the bench with --bot
naming coup-exploiter (it then models coup-bot without memory), e.g.
--bot target/release/coup-exploiter --opponents Seer.

Seer plays as a population when COUP_SEER is set: `Seer` (its default style) and `Seer-honest`,
`Seer-bluffer`, `Seer-caller`, `Seer-passive` (SEER_STYLE, ../shared/coup/seer/README.md), and
`Seer-NAME` for each NAME:KNOBS of COUP_SEER_STYLES (entries separated by `;`, KNOBS as SEER_STYLE
takes them, e.g. `wary:callmin=0.4;caller2:challenge=0.3`): members held out of the tuning.

--curve N (default 50; 0: off) follows each row with the learning curve of its run by blocks of
N games (scripts/coup-games.py --curve): the win rate and, per game, our challenges, those that
met an honest claim, and the opponent's bluffs we let stand. --claims follows it with each
side's claims by kind (claims, bluffs, challenged, caught; coup-games.py --claims).
--held-out A,B prints the rows of opponents A and B apart, under their own heading: the
opponents no default was tuned on.

--fresh gives each game a fresh working folder for our bot (memory disabled).

--calibration ends with each run's calibration table (scripts/coup-calibration.py: our bot's
predicted probability that each of the opponent's claims is a bluff, replayed on the games
before it, in bins against the bluffs the arbiter's log shows; the Brier score beside the base
rate's); skipped, saying so, with --fresh (the replay keeps a memory).

--seeds 7,11,13 plays every opponent once per seed (each seed's run in WORK/sSEED/OPPONENT)
and ends with one pooled row per opponent: the wins over all seeds with their Wilson interval,
the Student t interval of the seeds' mean rate ("between seeds": a run's games share both bots'
memories and the deck, so they need not be independent, while the seeds' runs are), and each
seed's rate, so one command reproduces a pooled table.

Example: scripts/coup-bench.py --rounds 100 --seed 7
         scripts/coup-bench.py --opponents Seer --seeds 7,11,13,17,19,23,29,31 --jobs 2
         scripts/coup-bench.py --opponents Exploiter --seeds 11,13,17 --jobs 2
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from coup_field import SPARRING, STANDINS  # noqa: E402
from wilson import between_runs, wilson  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rounds', type=int, default=100, help='rounds per opponent (2 games each)')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--seeds', default=None,
                    help='comma-separated seeds: one run per seed and opponent, then a pooled row per opponent')
    ap.add_argument('--bot', default=os.path.join(os.environ.get('CARGO_TARGET_DIR', os.path.join(ROOT, 'target')), 'release', 'coup-bot'))
    ap.add_argument('--bot-args', default='', help='extra arguments for our bot (space separated)')
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    ap.add_argument('--opponents', default=None, help='comma-separated subset (default: all available)')
    ap.add_argument('--fresh', action='store_true', help='fresh working folder for our bot in every game (no memory)')
    ap.add_argument('--jobs', type=int, default=1, help='opponents run in parallel')
    ap.add_argument('--log-calls', default=None,
                    help='record every call of our bot (history and arguments) as JSON lines in this file (scripts/coup-calls.py)')
    ap.add_argument('--keep', default=None, help='keep the work folder here')
    ap.add_argument('--curve', type=int, default=50, metavar='N',
                    help='learning curve of each run by blocks of N games (0: off)')
    ap.add_argument('--claims', action='store_true', help="each run's claims by kind and side")
    ap.add_argument('--held-out', default='', help='comma-separated opponents reported apart (never tuned on)')
    ap.add_argument('--calibration', action='store_true',
                    help="print each run's calibration table (scripts/coup-calibration.py)")
    a = ap.parse_args()
    if a.calibration and a.fresh:
        print('coup-bench: --calibration skipped: it replays the games with a memory, which --fresh runs lack')
        a.calibration = False

    arbiter = os.path.join(a.shared, 'coup', 'arbiter3.py')
    standin = os.path.join(a.shared, 'coup', 'standin.py')
    if not os.path.exists(arbiter):
        print('coup-bench: %s not found: nothing to measure (skipped)' % arbiter)
        return 0
    if not os.path.exists(a.bot):
        print('coup-bench: %s not found: build it first (cargo build --release)' % a.bot, file=sys.stderr)
        return 1
    # arbiter3.py runs the bots from their own folders: a relative path would not be found.
    a.bot = os.path.abspath(a.bot)
    ours = [a.bot] + a.bot_args.split()
    if a.log_calls:
        os.environ['COUP_CALLS_LOG'] = os.path.abspath(a.log_calls)
        ours = [sys.executable, '-S', os.path.join(HERE, 'coup-calls.py')] + ours
    if a.fresh:
        ours = [sys.executable, '-S', os.path.join(HERE, 'coup-fresh.py')] + ours
    opps = {}
    for s in STANDINS:
        # seeded from each call (scripts/coup-seeded.py): standin.py's random draws replay
        opps['si-' + s] = [sys.executable, '-S', os.path.join(HERE, 'coup-seeded.py'), standin, s]
    for s in SPARRING:
        opps['sp-' + s] = [a.bot, '--strategy', s]
    calc = os.environ.get('COUP_CALCULATOR')
    py2 = os.environ.get('PYTHON2', os.path.expanduser('~/.pyenv/versions/2.7.18/bin/python2'))
    if calc and os.path.exists(calc) and os.path.exists(py2):
        opps['Calculator'] = [py2, '-S', os.path.abspath(calc)]
    else:
        print('coup-bench: COUP_CALCULATOR / PYTHON2 not set or absent: the real Calculator is skipped')
    seer = os.environ.get('COUP_SEER')
    if seer and os.path.exists(seer):
        opps['Seer'] = [os.path.abspath(seer)]
        for style in ('honest', 'bluffer', 'caller', 'passive'):
            opps['Seer-' + style] = ['env', 'SEER_STYLE=' + style, os.path.abspath(seer)]
        # held-out members: COUP_SEER_STYLES='NAME:KNOBS;NAME:KNOBS' (Seer's knobs, its README)
        for entry in filter(None, os.environ.get('COUP_SEER_STYLES', '').split(';')):
            name, _, knobs = entry.partition(':')
            opps['Seer-' + name.strip()] = ['env', 'SEER_STYLE=' + knobs.strip(), os.path.abspath(seer)]
    else:
        print('coup-bench: COUP_SEER not set or absent: Seer is skipped (build it as ../shared/coup/seer/README.md says)')
    exploiter = os.environ.get('COUP_EXPLOITER') or os.path.join(os.path.dirname(a.bot), 'coup-exploiter')
    if os.path.exists(exploiter):
        opps['Exploiter'] = [os.path.abspath(exploiter)]
    else:
        print('coup-bench: %s absent: the Exploiter is skipped (cargo build --release --features measure --bins)'
              % exploiter)
    names = list(opps)
    if a.opponents:
        want = a.opponents.split(',')
        names = [n for n in want if n in opps]
        for n in want:
            if n not in opps:
                print('coup-bench: opponent %s unavailable, skipped' % n)
    work = a.keep or tempfile.mkdtemp(prefix='coup-bench-')
    os.makedirs(work, exist_ok=True)
    try:
        seeds = [int(x) for x in a.seeds.split(',')] if a.seeds else [a.seed]
    except ValueError:
        print('coup-bench: --seeds wants comma-separated integers, got %r' % a.seeds, file=sys.stderr)
        return 2
    pooled = bool(a.seeds)

    def folder(seed, name):
        return os.path.join(work, 's%d' % seed, name) if pooled else os.path.join(work, name)

    def launch(seed, name):
        w = folder(seed, name)
        shutil.rmtree(w, ignore_errors=True)
        os.makedirs(os.path.join(w, 'bots', 'Ours'))
        os.makedirs(os.path.join(w, 'bots', name))
        if name == 'Calculator':
            shutil.copy(calc, os.path.join(w, 'bots', name, 'calculator.py'))
            cmd = [py2, '-S', 'calculator.py']
        elif name == 'Exploiter':
            # It models our bot from our bot's folder (its memory, read only); with --fresh our
            # bot plays without memory (its folder's name names no opponent), and so does the model.
            cmd = opps[name] + ([] if a.fresh else ['--target-dir', os.path.join(w, 'bots', 'Ours')])
        else:
            cmd = opps[name]
        cfg = {'Ours': ours, name: cmd}
        json.dump(cfg, open(os.path.join(w, 'bots.json'), 'w'))
        args = [sys.executable, arbiter, '--config', os.path.join(w, 'bots.json'), '--bots', 'Ours,' + name,
                '--rounds', str(a.rounds), '--seed', str(seed), '--botdir', os.path.join(w, 'bots'),
                '--games-dir', os.path.join(w, 'games'), '--log', os.path.join(w, 'log'),
                '--json', os.path.join(w, 'result.json')]
        return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(os.path.join(w, 'stderr'), 'w'))

    def row(seed, name):
        """The opponent's row of one seed's run, and its (wins, games, forfeits ours)."""
        w = folder(seed, name)
        try:
            r = json.load(open(os.path.join(w, 'result.json')))
        except (OSError, ValueError):
            return '%-22s arbiter failed (see %s/stderr)' % (name, w), None
        pw = r['pairwise']
        a1 = pw.get('Ours|' + name, [0, 0, 0])
        a2 = pw.get(name + '|Ours', [0, 0, 0])
        wins = a1[0] + a2[1]
        n = sum(a1) + sum(a2)
        draws = a1[2] + a2[2]
        log = open(os.path.join(w, 'log')).read()
        ff_ours = log.count('Ours forfeits')
        ff_opp = log.count(name + ' forfeits')
        lo, hi = wilson(wins, n)
        t = r['timing']
        ms = lambda b: 1000 * t[b]['total_s'] / max(t[b]['calls'], 1)
        label = name if not pooled else '%s s%d' % (name, seed)
        text = '%-22s %4d/%-4d %5.1f%% [%4.1f, %4.1f]  first %3d/%-3d second %3d/%-3d draws %2d  forfeits ours %d opp %d  ms/call ours %.2f (max %.0f) opp %.2f' % (
            label, wins, n, 100 * wins / max(n, 1), 100 * lo, 100 * hi, a1[0], sum(a1), a2[1], sum(a2), draws,
            ff_ours, ff_opp, ms('Ours'), 1000 * t['Ours']['max_s'], ms(name))
        return text, (wins, n, ff_ours)

    print('coup-bench: arbiter3.py, %d rounds (%d games) per opponent, seed%s %s, bot %s%s, work %s' % (
        a.rounds, 2 * a.rounds, 's' if pooled else '', ','.join(map(str, seeds)), ' '.join(ours),
        ' (fresh folder per game)' if a.fresh else '', work))
    runs = [(seed, n) for seed in seeds for n in names]
    pending = list(runs)
    running, results, texts = [], {}, {}
    while pending or running:
        while pending and len(running) < a.jobs:
            seed, n = pending.pop(0)
            running.append((seed, n, launch(seed, n)))
        seed, n, p = running.pop(0)
        p.wait()
        text, counts = row(seed, n)
        results[(seed, n)] = counts
        texts[(seed, n)] = text
        print(text, flush=True)
        if counts and (a.curve > 0 or a.claims):
            games_py = os.path.join(HERE, 'coup-games.py')
            tables = ([['--curve', str(a.curve)]] if a.curve > 0 else []) + ([['--claims']] if a.claims else [])
            for t in tables:
                out = subprocess.run([sys.executable, games_py, folder(seed, n)] + t,
                                     capture_output=True, text=True)
                for x in (out.stdout if not out.returncode else 'coup-games failed: ' + out.stderr).rstrip().split('\n'):
                    print('    ' + x, flush=True)
    if a.calibration:
        for seed, n in runs:
            if not results.get((seed, n)):
                continue
            print('\ncalibration against %s, seed %d:' % (n, seed), flush=True)
            out = subprocess.run([sys.executable, os.path.join(HERE, 'coup-calibration.py'), folder(seed, n),
                                  '--bot', a.bot, '--bot-args', a.bot_args], capture_output=True, text=True)
            lines = out.stdout.split('\n')
            # The headline of every kind, and the whole table of all claims.
            at_all = next((i for i, x in enumerate(lines) if x.startswith('all:')), None)
            if at_all is None and not out.returncode:
                print('  no claim of the opponent to judge')
                continue
            at_all = len(lines) if at_all is None else at_all
            for x in lines[1:at_all]:
                if x and not x.startswith(' '):
                    print('  ' + x)
            for x in lines[at_all:]:
                if x:
                    print('  ' + x)
            if out.returncode:
                print('  coup-calibration failed: %s' % out.stderr.strip().split('\n')[-1])
    if pooled:
        for n in names:
            cells = [(seed, results.get((seed, n))) for seed in seeds]
            done = [c for _, c in cells if c]
            wins, games = sum(c[0] for c in done), sum(c[1] for c in done)
            lo, hi = wilson(wins, games)
            rates = ' '.join('%d:%s' % (seed, '%.1f' % (100 * c[0] / max(c[1], 1)) if c else 'failed')
                             for seed, c in cells)
            spread = ''
            if len(done) >= 2 and len({c[1] for c in done}) == 1:
                _, blo, bhi = between_runs([c[0] / c[1] for c in done])
                spread = ', between seeds [%.1f, %.1f]' % (100 * blo, 100 * bhi)
            print('%-22s pooled %d/%d = %.1f%% [%.1f, %.1f]%s over %d seeds (%s), forfeits ours %d' % (
                n, wins, games, 100 * wins / max(games, 1), 100 * lo, 100 * hi, spread, len(done),
                rates, sum(c[2] for c in done)), flush=True)
    held = [n for n in a.held_out.split(',') if n]
    if held:
        print('\nheld out (no default was tuned on these):')
        for seed, n in runs:
            if n in held:
                print(texts.get((seed, n), '%s s%d failed' % (n, seed)))
    failed = [r for r in runs if not results.get(r)]
    if failed:
        print('coup-bench: %d of %d runs failed (their stderr is in %s)' % (len(failed), len(runs), work),
              file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
