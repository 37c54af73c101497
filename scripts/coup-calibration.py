#!/usr/bin/env python3
"""Calibration of coup-bot's hand posterior against an opponent's true cards.

Reads a finished arbiter3.py run (its --log and --games-dir, e.g. a folder kept by
`scripts/coup-bench.py --keep DIR`: DIR/<Opponent>/log and games/), replays every call of
our bot in order in a fresh working folder (so its memory holds exactly the games played
before, as in the run: each prediction is made on games it did not learn from) with
`--explain`, and pairs each prediction "the claim just made is a bluff" (one minus the
posterior probability that the opponent holds the claimed character) with the truth: the
opponent's cards at the call where it made the claim (the arbiter's log shows them).

Prints, per kind of claim (actions, blocks, Contessa blocks) and in all, a table of bins of
predicted probability: claims, mean prediction, observed bluff frequency with its 95%
Wilson interval, and the Brier score. A calibrated model has the observed frequency inside
the interval of each bin; a model that tells bluffs apart has a Brier score below the base
rate's (the score of predicting the kind's overall bluff frequency for every claim).

Each table ends with the logistic recalibration fit `truth ~ slope * logit(prediction) +
intercept`: slope 1 and intercept 0 for a calibrated model, a slope below 1 for one that is
over-confident (its log-odds too far from even), a negative intercept for one that predicts too
many bluffs.

`--values` prints instead how the search's values came true: every decision of our bot with more
than one legal answer, by kind (a challenge, an answer to a claim that let it stand, a block, a
turn's action, the rest) and our card count, with the mean value the search gave the answer it
chose (its share of worlds won) against the share of those games our bot won. A value is a
prediction of the game's outcome; where one kind of answer comes true less often than its value
says against an opponent, the search over-values it there.

Example: scripts/coup-calibration.py /tmp/bench/Seer --bot target/release/coup-bot\n(--self-test checks the table on cases computed by hand.)
"""
import argparse
import ast
import json
import math
import re
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from logistic import fit_logistic  # noqa: E402
from wilson import wilson  # noqa: E402

CLAIMED = {'E': '~', 'T': '$', 'S': '*', 'A': '^', 'a': '~', 'c': '*', 'd': '$', 's': '!'}
BINS = [0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0001]


def calls(log, games):
    """(bot name, history file, opp coins, my coins, cards, legal, move) per call, in order."""
    lines = open(log).read().split('\n')
    pending = None
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if pending is None and games in line and '.txt ' in line:
            # The invocation; legal answers such as 'I\n' continue on the next line.
            text = line
            while i + 1 < len(lines) and ' played ' not in lines[i + 1] and games not in lines[i + 1]:
                i += 1
                text += '\n' + lines[i]
            head, rest = text.split('.txt ', 1)
            path = head.split(' ')[-1] + '.txt'
            parts = rest.split(' ')
            pending = (path, int(parts[0]), int(parts[1]), parts[2], ' '.join(parts[3:]))
        elif pending is not None and ' played ' in line:
            name, move = line.split(' played ', 1)
            out.append((name, pending[0], pending[1], pending[2], pending[3], pending[4],
                        ast.literal_eval(move)))
            pending = None
        i += 1
    return out


def legal_list(text):
    out, j = [], 0
    while j < len(text):
        if text[j] == ' ':
            j += 1
            continue
        if j + 1 < len(text) and text[j + 1] == '\n':
            out.append(text[j:j + 2])
            j += 2
        else:
            out.append(text[j])
            j += 1
    return out


def table(rows):
    """Bins of (predicted, truth) pairs: (low, high, claims, mean prediction, bluffs, observed
    frequency, Wilson low, Wilson high) per non-empty bin of BINS, and the Brier score."""
    out = []
    for lo, hi in zip(BINS, BINS[1:]):
        b = [r for r in rows if lo <= r[0] < hi]
        if not b:
            continue
        k = sum(1 for _, t in b if t)
        wl, wh = wilson(k, len(b))
        out.append((lo, min(hi, 1.0), len(b), sum(p for p, _ in b) / len(b), k, k / len(b), wl, wh))
    brier = sum((p - t) ** 2 for p, t in rows) / max(len(rows), 1)
    return out, brier


def logistic_fit(rows):
    """Maximum likelihood (slope, intercept) of truth ~ slope * logit(p) + intercept over
    (p, truth) pairs, p clipped to [1e-4, 1 - 1e-4] (`logistic.fit_logistic`, no ridge);
    (nan, nan) when the pairs cannot fix both: fewer than two distinct predictions, every
    truth the same, or the truths separated by a threshold on the prediction (no finite fit)."""
    xs = [math.log(q / (1 - q)) for q in (min(max(p, 1e-4), 1 - 1e-4) for p, _ in rows)]
    yes = [x for x, (_, t) in zip(xs, rows) if t]
    no = [x for x, (_, t) in zip(xs, rows) if not t]
    if len(set(xs)) < 2 or not yes or not no or max(no) <= min(yes) or max(yes) <= min(no):
        return float('nan'), float('nan')
    a, b = fit_logistic([([x, 1.0], 1.0 if t else 0.0) for x, (_, t) in zip(xs, rows)], ridge=0.0)
    return a, b


def winners(log):
    """Game file name -> whether our bot ('Ours') won, from an arbiter3.py log."""
    won, game = {}, None
    for line in open(log):
        m = re.search(r'/games/(\S+\.txt) ', line)
        if m:
            game = m.group(1)
        m = re.match(r'^(\S+) wins', line)
        if m and game:
            won[game] = m.group(1) == 'Ours'
            game = None
    return won


def value_kind(line, move, answers):
    """The kind of one decision for `--values`: what our bot answered (`move`) after the
    history's last line `line`, given its weighed `answers`."""
    if line == '':
        return 'my turn'
    if move == 'q':
        return 'challenge'
    if move in ('a', 'c', 'd', 's'):
        return 'block'
    if 'q' in answers:
        return 'let stand'
    return 'other'


def self_test():
    """The table on cases computed by hand."""
    rows = [(0.02, False)] * 9 + [(0.02, True)] + [(0.9, True)] * 3 + [(0.9, False)]
    bins, brier = table(rows)
    assert [b[2] for b in bins] == [10, 4], bins
    assert abs(bins[0][5] - 0.1) < 1e-12 and abs(bins[1][5] - 0.75) < 1e-12, bins
    assert abs(bins[1][3] - 0.9) < 1e-12
    # Brier: nine (0.02)^2, one (0.98)^2, three (0.1)^2, one (0.9)^2, over 14.
    want = (9 * 0.02 ** 2 + 0.98 ** 2 + 3 * 0.1 ** 2 + 0.9 ** 2) / 14
    assert abs(brier - want) < 1e-12, (brier, want)
    lo, hi = wilson(1, 10)
    assert abs(lo - 0.0179) < 1e-3 and abs(hi - 0.4042) < 1e-3, (lo, hi)
    # A prediction of exactly 1.0 falls in the last bin.
    assert table([(1.0, True)])[0][0][0] == 0.8
    line = curve_row('1-2', [('action', 0.5, True), ('action', 0.5, False)])
    assert '0.500     0.500' in line and '0.250   0.250' in line and 'off' not in line, line
    # Frequencies on the curve with slope 1/2: sigmoid(logit(0.2) / 2) = 1/3, and 2/3.
    rows = [(0.2, i < 10) for i in range(30)] + [(0.5, i < 15) for i in range(30)] \
        + [(0.8, i < 20) for i in range(30)]
    a, b = logistic_fit(rows)
    assert abs(a - 0.5) < 1e-6 and abs(b) < 1e-6, (a, b)
    # Calibrated: slope 1, intercept 0.
    a, b = logistic_fit([(0.2, i < 2) for i in range(10)] + [(0.8, i < 8) for i in range(10)])
    assert abs(a - 1) < 1e-6 and abs(b) < 1e-6, (a, b)
    assert math.isnan(logistic_fit([(0.3, True), (0.6, True)])[0])
    # Perfectly separated: no finite fit.
    assert math.isnan(logistic_fit([(0.3, False), (0.6, True)])[0])
    assert value_kind('', 'T', ['T', 'I']) == 'my turn'
    assert value_kind('T', 'q', ['q', 'p']) == 'challenge'
    assert value_kind('T', 'p', ['q', 'p']) == 'let stand'
    assert value_kind('S', 'c', ['a', 'c', 'p', 'q']) == 'block'
    assert value_kind('Sc', '\n', ['\n', 'q']) == 'let stand'
    assert value_kind('A', 'p', ['p', 's']) == 'other'
    print('coup-calibration: self-test passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('run', help='folder of one opponent of a kept coup-bench run (has log and games/)')
    ap.add_argument('--bot', default=os.path.join(os.path.dirname(HERE), 'target', 'release', 'coup-bot'))
    ap.add_argument('--bot-args', default='--strategy search')
    ap.add_argument('--ours', default='Ours', help="our bot's name in the run")
    ap.add_argument('--curve', type=int, default=50, metavar='N',
                    help='also print the calibration by blocks of N games in the order played (0: off)')
    ap.add_argument('--dump', metavar='FILE', help='also write every prediction as a tab-separated row: '
                    'kind, claim code, predicted, bluff (0/1), my cards, the history before the claim, the '
                    "claim's situation as the bot printed it (its row of the recalibration and its features, "
                    'space-separated; empty if it printed none)')
    ap.add_argument('--values', action='store_true', help="print instead how the search's values of the "
                    'answers it chose came true, by kind of decision (see above)')
    a = ap.parse_args()
    # The bot runs in its own working folder (where its memory lives): a relative path must
    # still name the program the user meant.
    if os.sep in a.bot:
        a.bot = os.path.abspath(a.bot)
    log = os.path.join(a.run, 'log')
    games = os.path.join(a.run, 'games')
    if not os.path.exists(log):
        print('coup-calibration: %s not found' % log, file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix='coup-calibration-')
    folder = os.path.join(work, a.ours)
    os.makedirs(folder)
    gdir = os.path.join(work, 'games')
    os.makedirs(gdir)
    texts = {}
    last_cards = {}
    rows = []  # (kind, predicted, truth)
    order = {}  # game file -> its index in the order the run started them
    block_of = []  # per row, the game's index
    dumped = []
    valued = []  # (kind, my cards, value of the chosen answer, game file)
    for name, path, opp, my, cards, legal, move in calls(log, games):
        g = os.path.basename(path)
        order.setdefault(g, len(order))
        text = texts.get(g, '')
        if name != a.ours:
            last_cards[g] = cards
        else:
            f = os.path.join(gdir, g)
            with open(f, 'w') as fh:
                fh.write(text)
            cmd = [a.bot] + a.bot_args.split() + ['--explain', f, str(opp), str(my), cards] + legal_list(legal)
            r = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
            line = text.split('\n')[-1]
            if a.values:
                weighed = dict((json.loads('"%s"' % k), float(v)) for k, v in
                               re.findall(r'^"((?:[^"\\]|\\.)*)" ([\d.]+) \(', r.stderr, re.M))
                if len(weighed) > 1 and move in weighed:
                    valued.append((value_kind(line, move, weighed), len(cards), weighed[move], g))
            if line and line[-1] in CLAIMED and g in last_cards and (len(line) == 1 or line[-1] in 'acds'):
                ch = CLAIMED[line[-1]]
                post = [l for l in r.stderr.split('\n') if l.startswith('posterior holds')]
                if post:
                    probs = dict(kv.split(':') for kv in post[0].split()[2:])
                    pred = 1.0 - float(probs[ch])
                    truth = ch not in last_cards[g]
                    kind = 'contessa block' if line[-1] == 's' else ('block' if line[-1] in 'acd' else 'action')
                    rows.append((kind, pred, truth))
                    block_of.append(order[g])
                    situation = [l[len('claim situation '):] for l in r.stderr.split('\n')
                                 if l.startswith('claim situation ')]
                    dumped.append((kind, line[-1], pred, truth, cards, text, (situation or [''])[0]))
        texts[g] = text + move
        # Every game's file follows the run move by move, so a finished game shows its end
        # to the portfolio (which reads earlier games' results from their files).
        with open(os.path.join(gdir, g), 'w') as fh:
            fh.write(texts[g])
    shutil.rmtree(work, ignore_errors=True)
    if a.dump:
        with open(a.dump, 'w') as fh:
            for kind, code, pred, truth, mine, text, situation in dumped:
                fh.write('%s\t%s\t%.4f\t%d\t%s\t%s\t%s\n' % (kind, code, pred, truth, mine,
                                                          text.replace('\n', '|'), situation))
    if a.values:
        return print_values(valued, winners(log), a)
    print('coup-calibration: %s, %d claims (bot %s %s)' % (a.run, len(rows), a.bot, a.bot_args))
    for kind in ['action', 'block', 'contessa block', 'all']:
        sel = [r for r in rows if kind == 'all' or r[0] == kind]
        if not sel:
            continue
        bins, brier = table([(p, t) for _, p, t in sel])
        base = sum(t for _, _, t in sel) / len(sel)
        print('\n%s: %d claims, %d bluffs, Brier %.3f (the base rate\'s %.3f)' % (
            kind, len(sel), sum(t for _, _, t in sel), brier, base * (1 - base)))
        print('  %-11s %6s %9s %9s %15s' % ('predicted', 'claims', 'mean', 'observed', '95% interval'))
        for lo, hi, n, mean, k, freq, wl, wh in bins:
            flag = '' if wl <= mean <= wh else '  <- off'
            print('  [%.2f,%.2f) %6d %9.3f %9.3f   [%.3f, %.3f]%s' % (lo, hi, n, mean, freq, wl, wh, flag))
        slope, intercept = logistic_fit([(p, t) for _, p, t in sel])
        print('  recalibration fit: ' + ('none (too few claims, or separated)' if math.isnan(slope)
                                         else 'slope %.2f, intercept %.2f' % (slope, intercept)))
    if a.curve > 0 and rows:
        print('\nby blocks of %d games (every claim; predictions made before the game was learnt from):' % a.curve)
        print('  %-11s %6s %9s %9s %15s %7s %7s' % ('games', 'claims', 'predicted', 'observed', '95% interval',
                                                  'Brier', 'base'))
        for b in range(0, max(block_of) + 1, a.curve):
            sel = [r for r, i in zip(rows, block_of) if b <= i < b + a.curve]
            print(curve_row('%d-%d' % (b + 1, b + a.curve), sel))
    return 0


def print_values(valued, won, a):
    """The `--values` table: per kind of decision and card count, the decisions, the mean value
    of the chosen answer and the share of their games won, with its Wilson interval."""
    print('coup-calibration --values: %s (bot %s %s)' % (a.run, a.bot, a.bot_args))
    print('  %-10s %5s %9s %10s %9s %15s' % ('decision', 'cards', 'decisions', 'mean value', 'won',
                                            '95% interval'))
    kinds = sorted(set((k, c) for k, c, _, _ in valued))
    for kind, cards in kinds:
        sel = [(v, won[g]) for k, c, v, g in valued if (k, c) == (kind, cards) and g in won]
        if not sel:
            continue
        n = len(sel)
        w = sum(1 for _, x in sel if x)
        mean = sum(v for v, _ in sel) / n
        wl, wh = wilson(w, n)
        flag = '' if wl <= mean <= wh else '  <- off'
        print('  %-10s %5d %9d %10.3f %9.3f   [%.3f, %.3f]%s' % (kind, cards, n, mean, w / n, wl, wh, flag))
    return 0


def curve_row(label, sel):
    """One block's line: claims, mean prediction, observed bluff share with its Wilson interval,
    the Brier score and the score of the block's own base rate."""
    n = len(sel)
    if n == 0:
        return '  %-11s %6d' % (label, 0)
    k = sum(1 for _, _, t in sel if t)
    mean = sum(p for _, p, _ in sel) / n
    brier = sum((p - t) ** 2 for _, p, t in sel) / n
    wl, wh = wilson(k, n)
    flag = '' if wl <= mean <= wh else '  <- off'
    return '  %-11s %6d %9.3f %9.3f   [%.3f, %.3f] %7.3f %7.3f%s' % (
        label, n, mean, k / n, wl, wh, brier, (k / n) * (1 - k / n), flag)


if __name__ == '__main__':
    sys.exit(main())
