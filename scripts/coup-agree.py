#!/usr/bin/env python3
"""Agreement of the Rust `coup-arbiter` with ../shared/coup/arbiter3.py.

Plays the same pairs of bots under both arbiters (ROUNDS rounds = 2*ROUNDS games per pair,
both seats, original quirks, bot folders kept across games in both) and prints, per pair, the
first bot's win rate under each with its 95% Wilson interval and whether the two intervals
overlap. Exit status 1 when a pair disagrees (intervals disjoint) or a forfeit occurs.

Pairs (all programs of this project or ../shared stand-ins): coup-bot (its default, search) against the
stand-ins taxman and bandit, and against the sparring strategies honest and always-steal.

Example: scripts/coup-agree.py --rounds 50 --seed 11
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
from wilson import wilson  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--rounds', type=int, default=50)
    ap.add_argument('--seed', type=int, default=11)
    tdir = os.environ.get('CARGO_TARGET_DIR', os.path.join(ROOT, 'target'))
    ap.add_argument('--bin', default=os.path.join(tdir, 'release'))
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    a = ap.parse_args()
    arbiter3 = os.path.join(a.shared, 'coup', 'arbiter3.py')
    standin = os.path.join(a.shared, 'coup', 'standin.py')
    if not os.path.exists(arbiter3):
        print('coup-agree: %s not found: skipped' % arbiter3)
        return 0
    bot = os.path.join(a.bin, 'coup-bot')
    rust = os.path.join(a.bin, 'coup-arbiter')
    for p in (bot, rust):
        if not os.path.exists(p):
            print('coup-agree: %s not found: build first (cargo build --release)' % p, file=sys.stderr)
            return 1
    pairs = [
        ('Taxman', ['python3', '-S', standin, 'taxman']),
        ('Bandit', ['python3', '-S', standin, 'bandit']),
        ('Honest', [bot, '--strategy', 'honest']),
        ('Stealer', [bot, '--strategy', 'always-steal']),
    ]
    bad = 0
    print('coup-agree: %d rounds (%d games) per pair, seed %d' % (a.rounds, 2 * a.rounds, a.seed))
    print('%-10s %-26s %-26s %s' % ('opponent', 'arbiter3.py', 'coup-arbiter', 'agree'))
    for name, cmd in pairs:
        w = tempfile.mkdtemp(prefix='coup-agree-')
        # arbiter3.py
        os.makedirs(os.path.join(w, 'bots', 'Ours'))
        os.makedirs(os.path.join(w, 'bots', name))
        json.dump({'Ours': [bot], name: cmd}, open(os.path.join(w, 'bots.json'), 'w'))
        subprocess.run([sys.executable, arbiter3, '--config', os.path.join(w, 'bots.json'), '--bots', 'Ours,' + name,
                        '--rounds', str(a.rounds), '--seed', str(a.seed), '--botdir', os.path.join(w, 'bots'),
                        '--games-dir', os.path.join(w, 'games'), '--log', os.path.join(w, 'log'),
                        '--json', os.path.join(w, 'r3.json')], stdout=subprocess.DEVNULL, check=True)
        r3 = json.load(open(os.path.join(w, 'r3.json')))['pairwise']
        a1, a2 = r3.get('Ours|' + name, [0, 0, 0]), r3.get(name + '|Ours', [0, 0, 0])
        k3, n3 = a1[0] + a2[1], sum(a1) + sum(a2)
        ff3 = open(os.path.join(w, 'log')).read().count('forfeits')
        # coup-arbiter
        spec = lambda n, c: '%s=%s' % (n, ' '.join(c))
        subprocess.run([rust, '--original-quirks', '--keep-bot-dirs', '-q', '-j', '1', '-r', str(a.rounds),
                        '-s', str(a.seed), '--work-dir', os.path.join(w, 'rust'), '--json', os.path.join(w, 'rs.json'),
                        spec('Ours', [bot]), spec(name, cmd)], stdout=subprocess.DEVNULL, check=True)
        rs = json.load(open(os.path.join(w, 'rs.json')))['report']
        pr = [p for p in rs['matrix'] if p['bot'] == 'Ours' and p['opponent'] == name][0]
        kr, nr = pr['wins'], pr['games']
        ffr = sum(s['forfeits'] for s in rs['standings'])
        i3, ir = wilson(k3, n3), wilson(kr, nr)
        ok = i3[0] <= ir[1] and ir[0] <= i3[1] and ff3 == 0 and ffr == 0
        bad += not ok
        print('%-10s %3d/%-3d %5.1f%% [%4.1f,%4.1f]  %3d/%-3d %5.1f%% [%4.1f,%4.1f]  %s%s' % (
            name, k3, n3, 100 * k3 / max(n3, 1), 100 * i3[0], 100 * i3[1],
            kr, nr, 100 * kr / max(nr, 1), 100 * ir[0], 100 * ir[1], 'yes' if ok else 'NO',
            '' if ff3 == 0 and ffr == 0 else ' (forfeits: %d / %d)' % (ff3, ffr)), flush=True)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
