#!/usr/bin/env python3
"""Fit the logistic recalibration of coup-bot's bluff reading (`RECALIBRATION` in
src/coup/bot/posterior.rs, applied by `--search recalibrate=1`).

usage: scripts/coup-recalibrate.py RUN_DIR... --bot BIN [--train STYLES] [--dumps DIR]

Each RUN_DIR is one opponent's folder of `scripts/coup-bench.py --keep DIR` (it holds `log` and
games/); the opponent's style is the folder's name (Seer, Seer-bluffer, ...). The bot's predicted
probability that each action claim of the opponent is a bluff comes from `scripts/coup-calibration.py
RUN_DIR --bot BIN --curve 0 --dump FILE` (the bot as it plays: give one that does not recalibrate
already), kept in --dumps DIR under the run's path (slow to make; clear DIR when the bot changes) and
joined one to one, in order, with the claims read from the log (a run whose claims or truths
disagree with its dump is skipped, with a line on stderr). A claim has 11 features: 1; the logit of
the prediction (clamped to [1e-4, 1 - 1e-4]); log((1 - h) / h), h the chance that a hand of the
claimant's card count drawn blind from the 15 cards less mine and the dead holds the character
(clamped to [1e-3, 1 - 1e-3]); I hold one card; it holds one card; its coins / 7; my coins / 7; its
standing claims of the character before this one (at most 2) and of others (at most 3: every claim
and block stands until its unchallenged Exchange clears them all, or it shows or gives up a copy of
the character); its turns before this one (at most 6) / 6; this is its first turn. Per kind
(Exchange, Tax, Steal, Assassinate), a logistic regression of the truth (1: a bluff) on them
(Newton's method, ridge 1e-2) over the runs of the --train styles. Prints the weights as a Rust array
(rows E, T, S, A) and per style the claims and the Brier scores of the kind's base rate in that style,
of the bot's prediction and of the recalibrated one ("held out": a style not in --train).

Example: scripts/coup-recalibrate.py /tmp/bench/s*/Seer* --bot target/release/coup-bot --dumps /tmp/d
(--self-test checks the features on a game made by hand and the fit on a known model.)
"""
import argparse
import importlib.util
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from logistic import fit_logistic, sigmoid  # noqa: E402

_spec = importlib.util.spec_from_file_location('coup_games', os.path.join(HERE, 'coup-games.py'))
coup_games = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(coup_games)

OURS = 'Ours'
KINDS = 'ETSA'
TURN_ACTIONS = coup_games.TURN_ACTIONS
SHOWN = coup_games.CHARS
GIVEN_UP = {'_': '~', "'": '^', '<': '*', '=': '!', '0': '$'}
# The character each action (coup-games.py's CLAIMED) and each block (its NEED) claims.
CLAIMED = {**coup_games.CLAIMED, **coup_games.NEED}


def holds_one(n, u, k):
    """P(k cards drawn from n, u of them copies of a character, hold a copy at least)."""
    none = 1.0
    for j in range(k):
        none *= max(0, n - u - j) / max(1, n - j)
    return 1.0 - none


def claims(game):
    """(kind, situation, bluff 0/1) per action claim of the opponent that has a next call; the
    situation: (h, my cards, its cards, its coins, my coins, same, other, its turns before)."""
    calls, dead, standing, turns, out = game['calls'], [], [], 0, []
    for i, (who, cards, coins, other_coins, ans) in enumerate(calls):
        opp, a0 = who != OURS, ans[:1]
        if opp and a0 in KINDS and i + 1 < len(calls):
            ch = CLAIMED[a0]
            mine, its = [c for c in calls[i + 1][1] if c in SHOWN], [c for c in cards if c in SHOWN]
            h = holds_one(15 - len(mine) - len(dead), 3 - mine.count(ch) - dead.count(ch), len(its))
            same = standing.count(ch)
            out.append((a0, (h, len(mine), len(its), int(coins), int(other_coins), same,
                             len(standing) - same, turns), int(ch not in its)))
        if opp and a0 in TURN_ACTIONS:
            turns += 1
        for x in ans:
            if x in GIVEN_UP:
                dead.append(GIVEN_UP[x])
                if opp and GIVEN_UP[x] in standing:
                    standing.remove(GIVEN_UP[x])
        if opp and a0 in CLAIMED:
            standing.append(CLAIMED[a0])
        if opp and a0 == 'E' and (i + 1 >= len(calls) or 'q' not in calls[i + 1][4]):
            standing = []
        if opp and ans in SHOWN and ans in standing:
            standing.remove(ans)
    return out


def clamp(p, e):
    return min(max(p, e), 1.0 - e)


def features(situation, p):
    """The 11 features of a claim in `situation` that the bot called a bluff with probability p."""
    h, mine, its, coins, my_coins, same, other, turns = situation
    p, h = clamp(p, 1e-4), clamp(h, 1e-3)
    return [1.0, math.log(p / (1 - p)), math.log((1 - h) / h), float(mine == 1), float(its == 1),
            coins / 7, my_coins / 7, float(min(same, 2)), float(min(other, 3)), min(turns, 6) / 6,
            float(turns == 0)]


def predictions(run, bot, cache):
    """(claim code, predicted bluff probability, bluff 0/1) per action row of the calibration dump
    of `run`, made by scripts/coup-calibration.py unless `cache` holds it."""
    path = os.path.join(cache, os.path.abspath(run).strip(os.sep).replace(os.sep, '_') + '.tsv')
    if not os.path.exists(path):
        print('coup-recalibrate: predicting %s' % run, file=sys.stderr)
        r = subprocess.run([sys.executable, os.path.join(HERE, 'coup-calibration.py'), run, '--bot', bot,
                            '--curve', '0', '--dump', path + '.part'], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('coup-recalibrate: coup-calibration.py failed on %s: %s' % (run, r.stderr.strip()))
        os.replace(path + '.part', path)
    rows = [line.rstrip('\n').split('\t') for line in open(path)]
    return [(r[1], float(r[2]), int(r[3])) for r in rows if r[0] == 'action']


def joined(run, bot, cache):
    """(kind, features, bluff, the bot's prediction) per claim of `run`; none when the log's
    claims and the dump's disagree (said on stderr)."""
    logged = [c for g in coup_games.parse(os.path.join(run, 'log')) for c in claims(g)]
    dump = predictions(run, bot, cache)
    bad = next((i for i, (c, d) in enumerate(zip(logged, dump)) if (c[0], c[2]) != (d[0], d[2])), None)
    if len(logged) != len(dump) or bad is not None:
        why = ('claim %d differs in kind or truth' % (bad + 1) if bad is not None
               else '%d claims in the log, %d in the dump' % (len(logged), len(dump)))
        print('coup-recalibrate: skipped %s: %s' % (run, why), file=sys.stderr)
        return []
    return [(kind, features(s, p), y, p) for (kind, s, y), (_, p, _) in zip(logged, dump)]


def fit(rows, kinds=KINDS):
    """Per kind, the weights of the logistic regression over (kind, features, bluff, ...) rows."""
    weights = {}
    for k in kinds:
        sel = [(r[1], r[2]) for r in rows if r[0] == k]
        if not sel:
            sys.exit('coup-recalibrate: no training claims of kind %s' % k)
        weights[k] = fit_logistic(sel, ridge=1e-2)
    return weights


def brier(ps, ys):
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / max(1, len(ys))


def report(rows, weights, train, runs):
    """The Rust array of `weights` (fitted on `runs` runs) and the Brier scores per style of
    (style, kind, features, bluff, prediction) rows."""
    fitted = [r for r in rows if r[0] in train]
    print('// Rows E, T, S, A: fitted on %d claims (%s) of %d runs of %s.' % (
        len(fitted), ', '.join('%s %d' % (k, sum(r[1] == k for r in fitted)) for k in KINDS), runs,
        ', '.join(train)))
    print('const RECALIBRATION: [[f64; 11]; 4] = [')
    for k in KINDS:
        print('    [%s],' % ', '.join(('%.3f' % w).replace('-0.000', '0.000') for w in weights[k]))
    print('];\n\nBrier scores: of the base rate of each kind, the bot\'s prediction, the recalibrated one.')
    print('%-14s %6s  %9s %9s %13s' % ('style', 'claims', 'base rate', 'bot', 'recalibrated'))
    for style in sorted(set(r[0] for r in rows)):
        sel = [r[1:] for r in rows if r[0] == style]
        ys = [y for _, _, y, _ in sel]
        base = {k: sum(y for kind, _, y, _ in sel if kind == k) / max(1, sum(r[0] == k for r in sel))
                for k in KINDS}
        recal = [sigmoid(sum(a * b for a, b in zip(weights[k], f))) for k, f, _, _ in sel]
        print('%-14s %6d  %9.4f %9.4f %13.4f%s' % (
            style, len(sel), brier([base[r[0]] for r in sel], ys), brier([r[3] for r in sel], ys),
            brier(recal, ys), '' if style in train else '  (held out)'))


GAME = r"""--- Game 0 : Seer vs. Ours
/s /g/0.txt 1 1 $*
Seer played 'T'
/o /g/0.txt 1 1 $$
Ours played 'p'
/s /g/0.txt 1 1 $*
Seer played '\n'
/o /g/0.txt 4 1 $$
Ours played 'S'
/s /g/0.txt 1 4 $*
Seer played 'c'
/o /g/0.txt 4 1 $$
Ours played '\n'
/s /g/0.txt 1 4 $*
Seer played 'T'
/o /g/0.txt 4 1 $$
Ours played 'q'
/s /g/0.txt 1 4 $*
Seer played '$'
/o /g/0.txt 4 1 $$
Ours played '0'
/o /g/0.txt 7 1 $
Ours played 'I\n'
/s /g/0.txt 2 7 !*
Seer played 'E'
/o /g/0.txt 7 2 $
Ours played 'p'
/s /g/0.txt 2 7 !*~~
Seer played '\n'
/o /g/0.txt 7 2 $
Ours played 'S'
/s /g/0.txt 2 7 !*
Seer played 'c'
/o /g/0.txt 7 2 $
Ours played '\n'
/s /g/0.txt 2 7 !*
Seer played 'I\n'
/o /g/0.txt 8 2 $
Ours played 'T'
/s /g/0.txt 2 8 !*
Seer played 'q'
/o /g/0.txt 8 2 $
Ours played '$'
/s /g/0.txt 2 8 !*
Seer played '<'
/s /g/0.txt 5 8 !
Seer played 'S'
/o /g/0.txt 8 5 $
Ours played 'p'
"""


def self_test():
    """The features of a game made by hand; the fit on rows drawn from a known model."""
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as fh:
        fh.write(GAME)
    try:
        got = claims(coup_games.parse(fh.name)[0])
    finally:
        os.unlink(fh.name)
    # 1. Its honest opening Tax. I hold two Dukes: one is left among the 13 cards I cannot see,
    # and a pair of them lacks it with chance 12/13 * 11/12 = 11/13 (h = 2/13).
    # 2. Its Tax on its second turn, its first Tax and its Captain block standing. It shows the
    # Duke (that Tax no longer stands) and I give up a Duke.
    # 3. Its bluffed Exchange: 3 Ambassadors among 13 cards (a pair lacks one with 10/13 * 9/12).
    # 4. Unchallenged, the Exchange cleared its claims; it blocks as Captain, then gives up its
    # Captain (the block no longer stands). Its bluffed Steal: 2 Captains among 12 cards left.
    want = [('T', [1, 0, math.log(11 / 2), 0, 0, 1 / 7, 1 / 7, 0, 0, 0, 1], 0),
            ('T', [1, 0, math.log(11 / 2), 0, 0, 4 / 7, 1 / 7, 1, 1, 1 / 6, 0], 0),
            ('E', [1, 0, math.log(15 / 11), 1, 0, 1, 2 / 7, 0, 2, 2 / 6, 0], 1),
            ('S', [1, 0, math.log(5), 1, 1, 8 / 7, 5 / 7, 0, 0, 4 / 6, 0], 1)]
    assert len(got) == len(want), got
    for (kind, s, y), (wk, wf, wy) in zip(got, want):
        f = features(s, 0.5)
        assert (kind, y) == (wk, wy) and all(abs(a - b) < 1e-12 for a, b in zip(f, wf)), (kind, f, y, wf)
    assert abs(features(got[0][1], 0.9)[1] - math.log(9)) < 1e-12
    assert abs(features(got[0][1], 0.0)[1] - math.log(1e-4 / (1 - 1e-4))) < 1e-12
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
            got = joined(run, a.bot, cache)
            rows += [(style,) + r for r in got]
            runs += bool(got) and style in train
    finally:
        if not a.dumps:
            shutil.rmtree(cache, ignore_errors=True)
    report(rows, fit([r[1:] for r in rows if r[0] in train]), train, runs)
    return 0


if __name__ == '__main__':
    sys.exit(main())
