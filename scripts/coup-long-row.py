#!/usr/bin/env python3
"""One row of scripts/coup-long: NAME REPORT.json -> wins of `Ours`, rate with its 95% Wilson
interval, forfeits, and the win rate of each tenth of the run (first to last), which shows a
memory that drifts."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wilson import wilson  # noqa: E402

name, path = sys.argv[1], sys.argv[2]
rep = json.load(open(path))
games = sorted(rep['games'], key=lambda g: (g['round'], g['game']))
ours = 0  # the first bot given to coup-arbiter
n = len(games)
w = sum(1 for g in games if g['winner'] == ours)
f = sum(1 for g in games if g.get('forfeit') and g['forfeit'][0] == ours)
lo, hi = (100.0 * x for x in wilson(w, n))
k = max(1, n // 10)
tenths = ' '.join('%d' % round(100.0 * sum(g['winner'] == ours for g in games[i:i + k]) / len(games[i:i + k]))
                  for i in range(0, n - n % k if n >= 10 else n, k))
print('%-20s %5d/%-5d %5.1f%% [%.1f, %.1f]  forfeits %d  by tenth: %s' % (name, w, n, 100.0 * w / n, lo, hi, f, tenths))
