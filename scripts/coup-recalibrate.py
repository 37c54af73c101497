#!/usr/bin/env python3
"""Fit the logistic recalibration of coup-bot's bluff reading (`RECALIBRATION` in
src/coup/bot/posterior.rs, applied by `--search recalibrate=1`).

usage: scripts/coup-recalibrate.py RUN_DIR... --bot BIN [--train STYLES] [--dumps DIR]

Each RUN_DIR is one opponent's folder of `scripts/coup-bench.py --keep DIR` (it holds `log` and
games/); the opponent's style is the folder's name (Seer, Seer-bluffer, ...). Every claim of the
opponent that our bot answered (its turn's action claims and its blocks of my actions) comes from
`scripts/coup-calibration.py RUN_DIR --bot BIN --curve 0 --dump FILE` (slow to make: kept in --dumps
DIR under the run's path; clear DIR when the bot's posterior changes), with its truth and the claim's
situation as the bot printed it under `--explain` ("claim situation ROW x...", `Ctx::claim_features`):
the row (0-3: Exchange, Tax, Steal, Assassinate; 4-7: blocks as Ambassador, Captain, Duke, Contessa)
and its features, the second of them the logit of the posterior's (not recalibrated) probability that
the claim is a bluff. Per row, a logistic regression of the truth (1: a bluff) on the features
(Newton's method, ridge 1e-2) over the runs of the --train styles. Prints the action rows' weights as
the Rust array, the block rows' as comments (the bot recalibrates actions alone: the block rows lost
games), and per style and group of rows (actions, blocks) the claims and the Brier scores of each
row's base rate in that style, of the bot's posterior and of the recalibrated one ("held out": a
style not in --train).

Example: scripts/coup-recalibrate.py /tmp/bench/s*/Seer* --bot target/release/coup-bot --dumps /tmp/d
(--self-test checks the reading of a dump's rows and the fit on a known model.)
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from logistic import fit_logistic, sigmoid  # noqa: E402


ROWS = 'ETSAacds'  # the rows of a printed situation by the claim's code (RECALIBRATION: the first 4)
GROUPS = (('actions', 'ETSA'), ('blocks', 'acds'))


def situations(lines):
    """(row code, features, bluff 0/1) per claim row of a coup-calibration.py dump (its lines)
    that carries the claim's situation."""
    out = []
    for line in lines:
        r = line.rstrip('\n').split('\t')
        if len(r) >= 7 and r[6]:
            v = r[6].split()
            out.append((ROWS[int(v[0])], [float(x) for x in v[1:]], int(r[3])))
    return out


def run_situations(run, bot, cache):
    """The claims of `run` (`situations`), from its dump in `cache`, made by
    scripts/coup-calibration.py unless `cache` holds it; none (said on stderr) when the dump has
    no situations (made by a bot older than `claim situation`)."""
    path = os.path.join(cache, os.path.abspath(run).strip(os.sep).replace(os.sep, '_') + '.tsv')
    if not os.path.exists(path):
        print('coup-recalibrate: predicting %s' % run, file=sys.stderr)
        r = subprocess.run([sys.executable, os.path.join(HERE, 'coup-calibration.py'), run, '--bot', bot,
                            '--curve', '0', '--dump', path + '.part'], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('coup-recalibrate: coup-calibration.py failed on %s: %s' % (run, r.stderr.strip()))
        os.replace(path + '.part', path)
    got = situations(open(path))
    if not got:
        print('coup-recalibrate: skipped %s: its dump %s has no claim situations' % (run, path),
              file=sys.stderr)
    return got


def fit(rows, kinds=ROWS):
    """Per row code, the weights of the logistic regression over (code, features, bluff) rows."""
    weights = {}
    for k in kinds:
        sel = [(r[1], r[2]) for r in rows if r[0] == k]
        if not sel:
            sys.exit('coup-recalibrate: no training claims of row %s' % k)
        weights[k] = fit_logistic(sel, ridge=1e-2)
    return weights


def brier(ps, ys):
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / max(1, len(ys))


def report(rows, weights, train, runs):
    """The Rust array of `weights` (fitted on `runs` runs) and the Brier scores per style and
    group of rows of (style, code, features, bluff) rows."""
    fitted = [r for r in rows if r[0] in train]
    print('// Rows %s: fitted on %d claims (%s) of %d runs of %s.' % (
        ', '.join(ROWS), len(fitted), ', '.join('%s %d' % (k, sum(r[1] == k for r in fitted)) for k in ROWS),
        runs, ', '.join(train)))
    row = lambda k: '[%s]' % ', '.join(('%.3f' % w).replace('-0.000', '0.000') for w in weights[k])
    print('const RECALIBRATION: [[f64; %d]; 4] = [' % len(weights[ROWS[0]]))
    for k in ROWS[:4]:
        print('    %s,' % row(k))
    print('];')
    for k in ROWS[4:]:
        print('// block %s (not recalibrated by the bot): %s' % (k, row(k)))
    print("\nBrier scores: of the base rate of each row, the bot's posterior, the recalibrated one.")
    print('%-14s %-8s %6s  %9s %9s %13s' % ('style', 'claims', 'count', 'base rate', 'bot', 'recalibrated'))
    for style in sorted(set(r[0] for r in rows)):
        for group, codes in GROUPS:
            sel = [r[1:] for r in rows if r[0] == style and r[1] in codes]
            ys = [y for _, _, y in sel]
            base = {k: sum(y for c, _, y in sel if c == k) / max(1, sum(r[0] == k for r in sel)) for k in codes}
            bot = [sigmoid(f[1]) for _, f, _ in sel]
            recal = [sigmoid(sum(a * b for a, b in zip(weights[k], f))) for k, f, _ in sel]
            print('%-14s %-8s %6d  %9.4f %9.4f %13.4f%s' % (
                style, group, len(sel), brier([base[c] for c, _, _ in sel], ys), brier(bot, ys),
                brier(recal, ys), '' if style in train else '  (held out)'))


DUMP = (
    'action\tT\t0.1860\t1\t~~\tEp|T\t1 1.000000 -1.2 0.5 0 0 0.571429 0.142857 0 1 0.166667 0\n'
    'block\tc\t0.1850\t0\t~*\tEp|Tp|Sc\t5 1.000000 -1.3 0.3 0 0 0.5 0.25 0 2 0.333333 0\n'
    'action\tS\t0.2000\t0\t~*\tEp|Tp|Sc|S\t\n'
    'action\tE\t0.1000\t0\t~*\tE\n')


def self_test():
    """The reading of a dump's rows; the fit on rows drawn from a known model."""
    got = situations(DUMP.splitlines(True))
    # Rows without a situation (an empty column, or a dump older than it) are not claims to fit.
    assert [(k, y) for k, _, y in got] == [('T', 1), ('c', 0)], got
    assert got[0][1] == [1, -1.2, 0.5, 0, 0, 0.571429, 0.142857, 0, 1, 0.166667, 0], got
    assert len(got[1][1]) == 11 and got[1][1][1] == -1.3, got
    assert len(got[0][1]) == 11, got
    # Rows drawn from a known model per kind: the weights come back within sampling error and the
    # ridge's shrinkage (a few hundredths here).
    rng, true, rows = random.Random(12), {'E': [-0.5, 1.0, -0.7], 'T': [0.3, -0.6, 0.0]}, []
    for kind, w in true.items():
        for _ in range(5000):
            x = [1.0, rng.gauss(0, 1), rng.gauss(0, 1)]
            rows.append((kind, x, int(rng.random() < sigmoid(sum(a * b for a, b in zip(w, x))))))
    got = fit(rows, 'ET')
    for k in true:
        assert all(abs(a - b) < 0.15 for a, b in zip(got[k], true[k])), (k, got[k], true[k])
    print('coup-recalibrate: self-test passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('run', nargs='+', metavar='RUN_DIR',
                    help="one opponent's folder of a kept coup-bench run (log and games/)")
    ap.add_argument('--bot', required=True, metavar='BIN', help='the coup-bot whose predictions are read')
    ap.add_argument('--train', default='Seer,Seer-bluffer,Seer-passive', metavar='STYLES',
                    help='the styles fitted on, comma-separated (default: %(default)s)')
    ap.add_argument('--dumps', metavar='DIR',
                    help="keep the bot's predictions there, by run (default: a temporary folder)")
    a = ap.parse_args()
    if shutil.which(a.bot) is None:
        print('coup-recalibrate: bot %s not found (or not executable)' % a.bot, file=sys.stderr)
        return 1
    for run in a.run:
        if not os.path.exists(os.path.join(run, 'log')):
            print('coup-recalibrate: %s not found' % os.path.join(run, 'log'), file=sys.stderr)
            return 1
    cache = a.dumps or tempfile.mkdtemp(prefix='coup-recalibrate-')
    os.makedirs(cache, exist_ok=True)
    train, rows, runs = a.train.split(','), [], 0
    try:
        for run in a.run:
            style = os.path.basename(os.path.normpath(run))
            got = run_situations(run, a.bot, cache)
            rows += [(style,) + r for r in got]
            runs += bool(got) and style in train
    finally:
        if not a.dumps:
            shutil.rmtree(cache, ignore_errors=True)
    report(rows, fit([r[1:] for r in rows if r[0] in train]), train, runs)
    return 0


if __name__ == '__main__':
    sys.exit(main())
