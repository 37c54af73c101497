#!/usr/bin/env python3
"""Transcripts of an arbiter3.py log, with every player's hidden cards.

usage: scripts/coup-games.py RUN_DIR [--bot NAME] [--lost] [--n N] [--answers]

RUN_DIR is one opponent's folder of `scripts/coup-bench.py --keep DIR` (it holds `log`).
Prints, per game, each call: who, its cards, its coins and the other's, its answer, and the
winner (`--lost`: only games NAME lost; `--n`: at most N games). `--answers` prints instead how
NAME answered the opponent's Assassinations and blocks, by NAME's and the opponent's cards and
by what a challenge found: the table that shows a bluff-block or challenge habit at a glance.
"""
import argparse
import collections
import os
import re
import sys

NEED = {'a': '~', 'c': '*', 'd': '$', 's': '!', 'A': '^'}


def parse(log):
    """Games of an arbiter3 log: dicts with `winner` and `calls` (who, cards, my coins,
    other's coins, answer)."""
    games, game, pending = [], None, None
    for line in open(log, errors='replace').read().split('\n'):
        m = re.match(r'--- Game (\d+) : (\S+) vs\. (\S+)', line)
        if m:
            game = {'winner': None, 'calls': []}
            games.append(game)
            continue
        if game is None:
            continue
        if '.txt ' in line and (line.startswith('/') or line.startswith('python')):
            toks = line.split(' ')
            k = next(j for j, t in enumerate(toks) if t.endswith('.txt'))
            pending = (toks[k + 3], toks[k + 2], toks[k + 1]) if len(toks) > k + 3 else None
            continue
        m = re.match(r"(\S+) played '(.*)'$", line)
        if m and pending:
            game['calls'].append((m.group(1),) + pending + (m.group(2),))
            pending = None
            continue
        m = re.match(r'(\S+) wins', line)
        if m:
            game['winner'] = m.group(1)
    return games


def answers(games, bot):
    """NAME's answers to the opponent's Assassinations and blocks."""
    table = collections.Counter()
    for g in games:
        calls = g['calls']
        for i in range(1, len(calls)):
            prev, cur = calls[i - 1], calls[i]
            if cur[0] != bot or prev[0] == bot or prev[4] not in NEED:
                continue
            claim, ans = prev[4], cur[4]
            found = ''
            if ans == 'q' and i + 1 < len(calls):
                found = 'proved' if calls[i + 1][4].startswith(NEED[claim]) else 'caught'
            kind = ans if ans in ('q', 's', '\\n') else 'gave a card'
            table[(claim, len(cur[1]), len(prev[1]), NEED[claim] in prev[1],
                   '!' in cur[1], kind.replace('\\n', 'accept'), found)] += 1
    print('claim  my-cards  its-cards  it-held  I-held-Contessa  answer       challenge  count')
    for k, v in sorted(table.items()):
        print('%-6s %-9d %-10d %-8s %-16s %-12s %-10s %d' % (k + (v,)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('run_dir')
    ap.add_argument('--bot', default='Ours')
    ap.add_argument('--lost', action='store_true')
    ap.add_argument('--n', type=int, default=5)
    ap.add_argument('--answers', action='store_true')
    a = ap.parse_args()
    log = os.path.join(a.run_dir, 'log')
    if not os.path.exists(log):
        print('coup-games: %s not found (a folder of coup-bench.py --keep)' % log, file=sys.stderr)
        return 1
    games = parse(log)
    if a.answers:
        answers(games, a.bot)
        return 0
    shown = 0
    for g in games:
        if shown >= a.n:
            break
        if a.lost and g['winner'] == a.bot:
            continue
        shown += 1
        print('=== winner %s' % g['winner'])
        for who, cards, mine, other, ans in g['calls']:
            print('  %-16s %-5s coins %2s vs %2s -> %s' % (who, cards, mine, other, ans))
    return 0


if __name__ == '__main__':
    sys.exit(main())
