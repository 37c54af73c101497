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
this fit played worse against Seer than the card values it would replace (docs/coup.md,
"Calibration").

Example: scripts/coup-value-fit.py /tmp/bench7/Seer /tmp/bench11/Seer
"""
import collections
import importlib.util
import math
import os
import sys


def load_games_module():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location('coup_games', os.path.join(here, 'coup-games.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def positions(games):
    """(card counts, lead, won) for each distinct position of our bot per game."""
    out = collections.defaultdict(list)
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
                lead = max(-10, min(10, int(mine) - int(other)))
            except ValueError:
                continue
            key = (min(2, len(cards)), theirs, lead)
            if key in seen:
                continue
            seen.add(key)
            out[key[:2]].append((lead, won))
    return out


def fit(samples):
    """Maximum-likelihood (a, b) of P(win) = sigmoid(a + b * lead)."""
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in samples:
            p = 1.0 / (1.0 + math.exp(-(a + b * x)))
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


def main():
    args = sys.argv[1:]
    if not args or args[0] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if args else 2
    cg = load_games_module()
    games = []
    for run in args:
        log = os.path.join(run, 'log')
        if not os.path.isfile(log):
            print(f'coup-value-fit: {log}: no such file (a RUN_DIR/OPPONENT of coup-bench.py --keep)',
                  file=sys.stderr)
            return 1
        games.extend(cg.parse(log))
    print(f'{len(games)} games')
    print('mine its      n        a        b   P(-3)   P(0)   P(+3)')
    for (mine, its), samples in sorted(positions(games).items()):
        a, b = fit(samples)
        p = [1.0 / (1.0 + math.exp(-(a + b * d))) for d in (-3, 0, 3)]
        print(f'{mine:>4} {its:>3} {len(samples):>6} {a:>8.3f} {b:>8.4f}  {p[0]:.3f}  {p[1]:.3f}  {p[2]:.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
