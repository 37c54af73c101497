#!/usr/bin/env python3
"""Fits the search's value table: the win probability of the player to move at a turn's
start, by both players' cards (1 or 2) and coins (0..12, 12 standing for 12 or more), read
from the games of arbiter3 logs (`scripts/coup-bench.py --keep DIR` runs).

Each turn start of every game with a winner is one observation (the mover's cards and coins,
the other's, whether the mover won the game). A cell's value is its share of wins shrunk
toward a logistic fit over all cells (features: for each pair of card counts, each side's
coins and whether each side can Assassinate (3+) or Coup (7+); the other's Coup on the mover's
last card), by
PRIOR pseudo-games:
(wins + PRIOR * fit) / (games + PRIOR). The shrinkage keeps rare cells (a 12-coin hand)
near the smooth fit and lets frequent ones speak for themselves. A mover with 7 coins facing
one card wins (its Coup cannot fail): those cells are 1.

Writes the table as text: a header of `#` lines (the command, the runs, the games), then one
line per (mover cards, other cards, mover coins) with the 13 values over the other's coins.

Example: scripts/coup-values.py /tmp/train/s37/* /tmp/train/s41/* -o src/coup/values.txt
"""
import argparse
import math
import os
import re
import sys

COINS = 13
PRIOR = 50.0


def positions(log):
    """(mover cards, other cards, mover coins, other coins, mover won) at each turn start."""
    out = []
    game = None

    def flush():
        if game and game['winner']:
            for who, mk, ok, mc, oc in game['starts']:
                out.append((mk, ok, mc, oc, int(who == game['winner'])))

    pending = None
    for line in open(log, errors='replace').read().split('\n'):
        m = re.match(r'--- Game (\d+) : (\S+) vs\. (\S+)', line)
        if m:
            flush()
            game = {'winner': None, 'starts': [], 'cards': {m.group(2): 2, m.group(3): 2}}
            continue
        if game is None:
            continue
        if '.txt ' in line and line.startswith(('/', 'python', 'env ')):
            toks = line.split(' ')
            k = next(j for j, t in enumerate(toks) if t.endswith('.txt'))
            if len(toks) > k + 3:
                n = len(toks[k + 3])
                pending = (int(toks[k + 2]), int(toks[k + 1]), n if n <= 2 else n - 2)
            else:
                pending = None
            continue
        m = re.match(r"""(\S+) played (?:'(.*)'|"(.*)")$""", line)
        if m and pending:
            who, answer = m.group(1), m.group(2) or m.group(3) or ''
            game['cards'][who] = pending[2]
            if answer and answer[0] in 'IFETSAC':
                other = next(p for p in game['cards'] if p != who)
                game['starts'].append((who, game['cards'][who], game['cards'][other]) + pending[:2])
            pending = None
            continue
        m = re.match(r'(\S+) (gave up a |lost a card from being challenged|lost both cards)', line)
        if m and m.group(1) in game['cards']:
            lost = 2 if m.group(2).startswith('lost both') else 1
            game['cards'][m.group(1)] -= lost
            continue
        m = re.match(r'(\S+) wins', line)
        if m:
            game['winner'] = m.group(1)
    flush()
    return [p for p in out if p[0] in (1, 2) and p[1] in (1, 2)]


def features(mk, ok, mc, oc):
    mc, oc = min(mc, COINS - 1), min(oc, COINS - 1)
    combo = [float(mk == a and ok == b) for a in (1, 2) for b in (1, 2)]
    coins = [mc / 12.0, oc / 12.0, float(mc >= 3), float(oc >= 3), float(mc >= 7), float(oc >= 7)]
    return combo + [c * x for c in combo for x in coins] + [float(oc >= 7 and mk == 1)]


def fit(rows, steps=3000, rate=0.5, ridge=1e-3):
    """Logistic regression by gradient descent on grouped rows ((x, wins, games))."""
    w = [0.0] * len(rows[0][0])
    total = sum(n for _, _, n in rows)
    for _ in range(steps):
        g = [ridge * wi for wi in w]
        for x, k, n in rows:
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x))))
            for i, xi in enumerate(x):
                g[i] += (n * p - k) * xi / total
        w = [wi - rate * gi for wi, gi in zip(w, g)]
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+', help='run folders holding `log` (or logs)')
    ap.add_argument('-o', '--output', default='-')
    ap.add_argument('--prior', type=float, default=PRIOR, help='pseudo-games of the fit per cell (default %(default)s)')
    a = ap.parse_args()
    cells = {}
    logs = [os.path.join(r, 'log') if os.path.isdir(r) else r for r in a.runs]
    for log in logs:
        for mk, ok, mc, oc, won in positions(log):
            key = (mk, ok, min(mc, COINS - 1), min(oc, COINS - 1))
            k, n = cells.get(key, (0, 0))
            cells[key] = (k + won, n + 1)
    if not cells:
        print('coup-values: no turn starts in %s' % ' '.join(logs), file=sys.stderr)
        return 1
    rows = [(features(*key), k, n) for key, (k, n) in sorted(cells.items())]
    w = fit(rows)
    games = sum(n for _, n in cells.values())
    out = ['# coup value table: P(the player to move at a turn start wins), scripts/coup-values.py',
           '# from %d turn starts of %d logs; shrunk toward the logistic fit by %g pseudo-games' % (games, len(logs), a.prior),
           '# line: MOVER_CARDS OTHER_CARDS MOVER_COINS then 13 values over OTHER_COINS 0..12 (12: 12 or more)']
    for mk in (1, 2):
        for ok in (1, 2):
            for mc in range(COINS):
                vals = []
                for oc in range(COINS):
                    z = sum(a * b for a, b in zip(w, features(mk, ok, mc, oc)))
                    prior = 1.0 / (1.0 + math.exp(-z))
                    k, n = cells.get((mk, ok, mc, oc), (0, 0))
                    # A Coup (7 coins) on the other's last card cannot fail (rules §3).
                    certain = mc >= 7 and ok == 1
                    vals.append(1.0 if certain else (k + a.prior * prior) / (n + a.prior))
                out.append('%d %d %d %s' % (mk, ok, mc, ' '.join('%.3f' % v for v in vals)))
    text = '\n'.join(out) + '\n'
    if a.output == '-':
        sys.stdout.write(text)
    else:
        with open(a.output, 'w') as f:
            f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
