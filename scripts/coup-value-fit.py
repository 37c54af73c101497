#!/usr/bin/env python3
"""Fit the search's horizon value: the chance that our bot wins from a position.

usage: scripts/coup-value-fit.py RUN_DIR/OPPONENT...

Reads the arbiter3.py logs of kept `scripts/coup-bench.py --keep DIR` runs (DIR/<Opponent>/log)
and, for every position at which our bot ("Ours") was called, takes its cards, the opponent's
cards (at the opponent's last call) and the coin lead (ours minus its, clamped to [-10, 10]),
once per distinct position per game, labelled with whether our bot won that game. Fits, per
card count (mine, its: 1 or 2 each), a logistic regression P(win) = 1 / (1 + exp(-(a + b*lead)))
by maximum likelihood (Newton's method) and prints n, a and b, and the fitted value at a lead of
-3, 0 and +3 coins: the search's horizon value (`SearchConfig::card_value`, `coin_value` in
src/coup/bot/determinized.rs) measured per position. Used as the horizon value (symmetrised),
this fit played worse against Seer than the card values it would replace (docs/experiments/coup-log.md,
"Calibration").

With `--coins` it fits instead one logistic regression over all positions with the card
counts, the lead / 7 (clamped to [-1, 1]), whether each side holds 3 and 7 coins (an
Assassination, a Coup) and each side's coins / 10 (capped at 1), and with `--test RUN...`
scores on those held-out runs (log loss and Brier score, per position) the base rate, the
search's default horizon value (`card_value` plus `coin_value` per coin of lead), the
per-card-count fit and the `--coins` fit: whether a value predicts the games it did not learn
from. `--self-test` checks the fit on a case computed by hand.

Example: scripts/coup-value-fit.py /tmp/bench7/Seer /tmp/bench11/Seer
         scripts/coup-value-fit.py --coins /tmp/bench7/Seer --test /tmp/bench11/Seer
"""
import argparse
import collections
import importlib.util
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from logistic import fit_logistic, sigmoid  # noqa: E402


def load_games_module():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location('coup_games', os.path.join(here, 'coup-games.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def distinct_positions(games, key):
    """(key(my cards, its cards, my coins, its coins), won) for each distinct key per game, over
    the positions at which our bot ("Ours") was called once the opponent had been called (its
    cards as at its last call, both card counts capped at 2)."""
    out = []
    for g in games:
        won = g['winner'] == 'Ours'
        theirs, seen = None, set()
        for who, cards, mine, other, _answer in g['calls']:
            if who != 'Ours':
                theirs = min(2, len(cards))
                continue
            if theirs is None:
                continue
            try:
                k = key(min(2, len(cards)), theirs, int(mine), int(other))
            except ValueError:
                continue
            if k not in seen:
                seen.add(k)
                out.append((k, won))
    return out


def positions(games):
    """{card counts: [(lead, won)]} for each distinct (card counts, lead) of our bot per game,
    the lead (ours minus its coins) clamped to [-10, 10]."""
    out = collections.defaultdict(list)
    lead = lambda mine, its, mc, oc: (mine, its, max(-10, min(10, mc - oc)))  # noqa: E731
    for (mine, its, d), won in distinct_positions(games, lead):
        out[(mine, its)].append((d, won))
    return out


def fit(samples):
    """Maximum-likelihood (a, b) of P(win) = sigmoid(a + b * lead)."""
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in samples:
            p = sigmoid(a + b * x)
            ga += y - p
            gb += (y - p) * x
            w = p * (1.0 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


# The search's default horizon value (SearchConfig::default in src/coup/bot/determinized.rs):
# card_value[mine - 1][its - 1] plus COIN_VALUE per coin of lead, clamped to [0, 1].
CARD_VALUE = {(1, 1): 0.39, (1, 2): 0.14, (2, 1): 0.72, (2, 2): 0.46}
COIN_VALUE = 0.035
CARD_COUNTS = ((1, 1), (1, 2), (2, 1), (2, 2))


def coin_features(mine, its, my_coins, its_coins):
    """The `--coins` model's features of a position."""
    f = [1.0 if (mine, its) == c else 0.0 for c in CARD_COUNTS]
    f += [max(-1.0, min(1.0, (my_coins - its_coins) / 7.0)),
          float(my_coins >= 7), float(its_coins >= 7), float(my_coins >= 3), float(its_coins >= 3),
          min(1.0, my_coins / 10.0), min(1.0, its_coins / 10.0)]
    return f


def coin_positions(games):
    """(mine, its, my coins, its coins, won) for each distinct position of our bot per game."""
    return [k + (won,) for k, won in distinct_positions(games, lambda *p: p)]


def scores(rows, predict):
    """(log loss, Brier score) of `predict` over (position, won) rows."""
    ll = br = 0.0
    for pos, won in rows:
        p = min(1.0 - 1e-3, max(1e-3, predict(pos)))
        ll -= math.log(p) if won else math.log(1.0 - p)
        br += (p - won) ** 2
    return ll / len(rows), br / len(rows)


def read_games(cg, runs):
    games = []
    for run in runs:
        log = os.path.join(run, 'log')
        if not os.path.isfile(log):
            raise SystemExit(f'coup-value-fit: {log}: no such file (a RUN_DIR/OPPONENT of coup-bench.py --keep)')
        games.extend(cg.parse(log))
    return games


def self_test():
    # Two positions, each won once in two games: the fit of a constant is sigmoid(0) = 0.5; with
    # one feature that separates a position won 3 times in 4 from one won once in 4, the fitted
    # probabilities are 0.75 and 0.25 (up to the small ridge).
    w = fit_logistic([([1.0], 1), ([1.0], 0), ([1.0], 1), ([1.0], 0)])
    assert abs(sigmoid(w[0]) - 0.5) < 1e-6, w
    rows = [([1.0, 1.0], y) for y in (1, 1, 1, 0)] + [([1.0, 0.0], y) for y in (1, 0, 0, 0)]
    w = fit_logistic(rows, ridge=1e-9)
    assert abs(sigmoid(w[0] + w[1]) - 0.75) < 1e-4 and abs(sigmoid(w[0]) - 0.25) < 1e-4, w
    ll, br = scores([((0,), 1), ((0,), 0)], lambda _: 0.5)
    assert abs(ll - math.log(2)) < 1e-12 and abs(br - 0.25) < 1e-12
    print('coup-value-fit: self-test passed (3 cases)')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+', metavar='RUN_DIR/OPPONENT')
    ap.add_argument('--coins', action='store_true', help='fit the model with coin thresholds')
    ap.add_argument('--test', nargs='+', default=[], metavar='RUN_DIR/OPPONENT',
                    help='held-out runs to score the values on')
    a = ap.parse_args()
    cg = load_games_module()
    games = read_games(cg, a.runs)
    print(f'{len(games)} games')
    per_count = {}
    if not a.coins or a.test:
        by_count = sorted(positions(games).items())
        per_count = {k: fit(samples) for k, samples in by_count}
    if not a.coins:
        print('mine its      n        a        b   P(-3)   P(0)   P(+3)')
        for (mine, its), samples in by_count:
            ab = per_count[(mine, its)]
            p = [sigmoid(ab[0] + ab[1] * d) for d in (-3, 0, 3)]
            print(f'{mine:>4} {its:>3} {len(samples):>6} {ab[0]:>8.3f} {ab[1]:>8.4f}  '
                  f'{p[0]:.3f}  {p[1]:.3f}  {p[2]:.3f}')
    w = None
    if a.coins:
        train = [(coin_features(*p[:4]), int(p[4])) for p in coin_positions(games)]
        w = fit_logistic(train)
        names = ['(1,1)', '(1,2)', '(2,1)', '(2,2)', 'lead/7', 'mine>=7', 'its>=7', 'mine>=3',
                 'its>=3', 'mine/10', 'its/10']
        print(f'{len(train)} positions; weights:')
        print('  ' + '  '.join(f'{n} {x:.3f}' for n, x in zip(names, w)))
    if a.test:
        test = [(p[:4], int(p[4])) for p in coin_positions(read_games(cg, a.test))]
        base = sum(y for _, y in test) / len(test)
        rows = [('base rate', lambda _: base),
                ('default horizon value',
                 lambda p: min(1.0, max(0.0, CARD_VALUE[p[:2]] + COIN_VALUE * (p[2] - p[3])))),
                ('per card count, by lead',
                 lambda p: sigmoid(per_count[p[:2]][0] + per_count[p[:2]][1] * max(-10, min(10, p[2] - p[3]))))]
        if w is not None:
            rows.append(('with coin thresholds',
                         lambda p: sigmoid(sum(x * y for x, y in zip(w, coin_features(*p))))))
        print(f'held out: {len(test)} positions, base rate {base:.3f}')
        print('value                      log loss   Brier')
        for name, f in rows:
            ll, br = scores(test, f)
            print(f'{name:<26} {ll:8.4f}  {br:.4f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
