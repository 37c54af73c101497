#!/usr/bin/env python3
"""The clairvoyant ceiling of coup-bot's search, per opponent.

For each opponent, runs the project's arbiter (`coup-arbiter --original-quirks
--keep-bot-dirs`, ROUNDS rounds = 2*ROUNDS games, both seats, fixed seed) twice: once
against `builtin:clairvoyant` (the search told the opponent's true hand at every call: a
bound for measurement, never a way to play) and once against `builtin:search` (the same
search, honest, in-process and without memory). Prints both win rates with their 95% Wilson
intervals and the share of the ceiling the honest search reaches.

Opponents: Seer (COUP_SEER, its built program), the real Calculator (COUP_CALCULATOR and
PYTHON2), the stand-ins of ../shared/coup/standin.py (absent ones are skipped with a message),
and the sparring strategies and archetypes of coup-bot, in-process (`sp-NAME`, as
coup-bench.py names them).

With --kinds, four more rows: the search told the opponent's hand only when opening a turn
(`builtin:clairvoyant:1`), only when answering the opponent's action (`:2`: let it stand,
challenge, block), only when answering its block (`:8`: accept or challenge), and only at the
other calls (`:4`: reveals, lost cards, the Exchange's keep), so the distance to the ceiling
splits by kind of decision.

With --search KEY=VALUE,... both rows play with those search settings (as `coup-bot --search`
takes them), so a setting's ceiling is measured beside its honest rate.

The clairvoyant bound is a measurement mode: coup-arbiter must be built with the cargo feature
`measure` (`cargo build --release --features measure`; `make coup-ceiling` does).

Example: scripts/coup-ceiling.py --rounds 100 --seed 7 --opponents Seer,si-taxman
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from coup_field import SPARRING, STANDINS  # noqa: E402
from wilson import wilson  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rounds', type=int, default=100)
    ap.add_argument('--seed', type=int, default=7)
    tdir = os.environ.get('CARGO_TARGET_DIR', os.path.join(ROOT, 'target'))
    ap.add_argument('--arbiter', default=os.path.join(tdir, 'release', 'coup-arbiter'))
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    ap.add_argument('--opponents', default=None, help='comma-separated subset')
    ap.add_argument('--jobs', type=int, default=1, help="games in parallel (coup-arbiter's -j)")
    ap.add_argument('--kinds', action='store_true',
                    help='also the bound limited to each kind of decision (action, answer, block answer, other)')
    ap.add_argument('--search', default='', help="search settings KEY=VALUE,... for both rows")
    a = ap.parse_args()
    knobs = ''.join(' ' + kv for kv in a.search.split(',') if kv)
    if not os.path.exists(a.arbiter):
        print('coup-ceiling: %s not found: build it first (cargo build --release --features measure)' % a.arbiter, file=sys.stderr)
        return 1
    standin = os.path.join(a.shared, 'coup', 'standin.py')
    opps = {}
    seer = os.environ.get('COUP_SEER')
    if seer and os.path.exists(seer):
        opps['Seer'] = os.path.abspath(seer)
    else:
        print('coup-ceiling: COUP_SEER not set or absent: Seer skipped')
    calc = os.environ.get('COUP_CALCULATOR')
    py2 = os.environ.get('PYTHON2', os.path.expanduser('~/.pyenv/versions/2.7.18/bin/python2'))
    if calc and os.path.exists(calc) and os.path.exists(py2):
        opps['Calculator'] = '%s -S %s' % (py2, os.path.abspath(calc))
    else:
        print('coup-ceiling: COUP_CALCULATOR / PYTHON2 not set or absent: Calculator skipped')
    if os.path.exists(standin):
        for s in STANDINS:
            opps['si-' + s] = 'python3 -S %s %s' % (standin, s)
    else:
        print('coup-ceiling: %s absent: stand-ins skipped' % standin)
    for s in SPARRING:
        opps['sp-' + s] = 'builtin:' + s
    names = list(opps)
    if a.opponents:
        names = [n for n in a.opponents.split(',') if n in opps]
    work = tempfile.mkdtemp(prefix='coup-ceiling-')
    print('coup-ceiling: coup-arbiter --original-quirks --keep-bot-dirs, %d games per row, seed %d, work %s%s'
          % (2 * a.rounds, a.seed, work, ', search settings' + knobs if knobs else ''))
    rows = ['search', 'clairvoyant'] + (['clairvoyant:%d' % k for k in (1, 2, 8, 4)] if a.kinds else [])
    heads = ['search (honest)', 'clairvoyant ceiling'] + (['... at actions', '... at answers', '... at block answers', '... at the rest']
                                                          if a.kinds else [])
    print('%-14s %s share' % ('opponent', ''.join('%-26s' % h for h in heads)))
    for name in names:
        rates = []
        for ours in rows:
            w = os.path.join(work, '%s-%s' % (name, ours.replace(':', '')))
            os.makedirs(w)
            out = os.path.join(w, 'r.json')
            subprocess.run([a.arbiter, '-r', str(a.rounds), '-s', str(a.seed), '-j', str(a.jobs), '-q',
                            '--original-quirks', '--keep-bot-dirs', '--work-dir', w, '--json', out,
                            'Ours=builtin:' + ours + knobs, '%s=%s' % (name, opps[name])],
                           stdout=subprocess.DEVNULL, check=False)
            try:
                r = json.load(open(out))
                row = [b for b in r['report']['standings'] if b['name'] == 'Ours'][0]
                wins, games = row['wins'], row['games']
            except (OSError, ValueError, KeyError, IndexError):
                wins, games = 0, 0
            rates.append((wins, games))
        cells = []
        for wins, games in rates:
            lo, hi = wilson(wins, games)
            cells.append('%5.1f%% [%4.1f, %4.1f]' % (100 * wins / max(games, 1), 100 * lo, 100 * hi))
        share = rates[0][0] / max(rates[1][0], 1)
        print('%-14s %s %.0f%%' % (name, ''.join('%-26s' % c for c in cells), 100 * share), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
