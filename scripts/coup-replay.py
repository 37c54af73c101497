#!/usr/bin/env python3
"""Replays recorded calls of our Coup bot (scripts/coup-calls.py, coup-bench.py --log-calls)
through two bot commands and counts where their answers differ, by decision kind (diagnostics).

usage: coup-replay.py CALLS.jsonl --memory FILE --opponent NAME [--bot BOT] [--bot-b BOT2] [--show N]

Side A: BOT --no-memory. Side B: BOT2 (default BOT) run in a folder named `Ours` holding a copy
of the memory FILE (coup-memory.txt learned in a memory-on run); the history file is renamed
to round 999 so none of the memory's own games is excluded. Without --memory both sides run
without memory (compare two builds with --bot-b).
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile


def kind(hist):
    c = hist[-1] if hist else '\n'
    if c == '\n':
        return 'action'
    if c in 'ET':
        return 'challenge ' + c
    if c == 'S':
        return 'answer S'
    if c == 'A':
        return 'answer A'
    if c == 'F':
        return 'block F'
    if c in 'acds':
        return 'challenge block'
    if c == 'q':
        return 'reveal'
    return 'other'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('calls')
    ap.add_argument('--memory', default=None)
    ap.add_argument('--opponent', default='Calculator')
    ap.add_argument('--bot', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'target', 'release', 'coup-bot'))
    ap.add_argument('--bot-b', default=None)
    ap.add_argument('--show', type=int, default=0, help='print this many differing calls')
    a = ap.parse_args()
    # The bots run in a folder of their own: a relative path would not be found there.
    a.bot, a.bot_b = (os.path.abspath(b) if b and os.sep in b else b for b in (a.bot, a.bot_b))
    bot_b = a.bot_b or a.bot
    work = tempfile.mkdtemp(prefix='coup-replay-')
    ours = os.path.join(work, 'Ours')
    os.makedirs(ours)
    tot = collections.Counter()
    diff = collections.Counter()
    pairs = collections.Counter()
    shown = 0
    for line in open(a.calls):
        r = json.loads(line)
        parts = r['file'][:-4].split('_')
        parts[-2] = '999'
        name = '_'.join(parts) + '.txt'
        answers = []
        for side in 'AB':
            path = os.path.join(work, name)
            with open(path, 'w') as f:
                f.write(r['history'])
            if side == 'A' or not a.memory:
                cmd = [a.bot if side == 'A' else bot_b, '--no-memory', path] + r['args']
            else:
                shutil.copy(a.memory, os.path.join(ours, 'coup-memory.txt'))
                cmd = [bot_b, path] + r['args']
            out = subprocess.run(cmd, cwd=ours, capture_output=True, text=True).stdout
            with open(path) as f:
                answers.append(f.read()[len(r['history']):] + ('/' + out.strip() if out.strip() else ''))
        k = kind(r['history'])
        tot[k] += 1
        if answers[0] != answers[1]:
            diff[k] += 1
            pairs[(k, answers[0], answers[1])] += 1
            if shown < a.show:
                shown += 1
                print('%s | %s | A %r B %r' % (r['file'], r['history'].replace('\n', '/')[-60:], answers[0], answers[1]))
    shutil.rmtree(work, ignore_errors=True)
    print('%-18s %6s %6s' % ('kind', 'calls', 'differ'))
    for k in sorted(tot):
        print('%-18s %6d %6d' % (k, tot[k], diff[k]))
    print('most common differences (kind, A, B): count')
    for (k, x, y), n in pairs.most_common(25):
        print('  %-16s %-8r -> %-8r %d' % (k, x, y, n))
    return 0


if __name__ == '__main__':
    sys.exit(main())
