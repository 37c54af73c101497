#!/usr/bin/env python3
"""Transcripts of an arbiter3.py log, with every player's hidden cards.

usage: scripts/coup-games.py RUN_DIR... [--bot NAME] [--games A:B] [--lost] [--n N] [--answers | --losses | --by-hand | --blocks | --openings | --claims | --truths | --cells | --taxes | --exposure [--decay D] | --curve N]

RUN_DIR is one opponent's folder of `scripts/coup-bench.py --keep DIR` (it holds `log`).
Prints, per game, each call: who, its cards, its coins and the other's, its answer, and the
winner (`--lost`: only games NAME lost; `--n`: at most N games). `--answers` prints instead how
NAME answered the opponent's Assassinations and blocks, by NAME's and the opponent's cards and
by what a challenge found: the table that shows a bluff-block or challenge habit at a glance.
`--losses` counts every card given up by who gave it up and why (a bluff caught, a challenge
of an honest claim, an Assassination, a Coup, the double loss), over all RUN_DIRs, with how
often NAME won the games whose first card went that way, and by who gave up the first card:
where the cards, and the games, go (who takes the first card, and who converts it).
`--by-hand` shows how the opponent's turn-start action depends on its two hidden cards, and
what knowing that would be worth for telling its bluffs: the Brier score of the probability
that an action claim is a bluff, from the hands NAME's two cards leave (hypergeometric, the
rest of the history ignored), with one likelihood ratio per action (the best of a grid, fitted
on these games) against the likelihood of each action under each hand (the table, fitted on
these games too): an in-sample bound on what a hand-aware model of its choices could add.
`--blocks` shows how the opponent answered NAME's Foreign Aid, Steal and Assassination, by its
cards left and whether it held a card that blocks it: how often it blocked and challenged (a
player that blocks whenever it holds the card makes a declined block near-proof of lacking it).
`--openings` shows the opponent's first action of each game when it claimed a character, by how
many copies of it NAME held: how often it was a bluff, how often NAME challenged it, and NAME's
wins after challenging an honest claim and a bluff (what a challenge of an opening claim is worth).
`--claims` shows each side's claims by kind: how often they were bluffs, how often the other
side challenged them and caught a bluff, and the bluffs that went unchallenged (how an adaptive
opponent answers a change of the bot shows here first).
`--truths` shows NAME's own action claims by kind, NAME's card count and whether NAME held the
card, with how often the opponent challenged each: an opponent that reads NAME's record
challenges NAME's bluffs more than its honest claims.
`--cells` splits the opponent's action claims by the public situation a learning opponent can
condition on: NAME's cards, the coin race from the claimant's side (ahead, even, behind) and the
claimant's turns before the claim (0, 1, 2 or more): where it bluffs, where NAME challenges, and
how often those challenges caught a bluff.
`--taxes` shows how NAME answered the opponent's Tax claims by NAME's cards, its Dukes, the
claimant's cards and its coins after the Tax (7 standing for 7 or more): how often the claims
were bluffs, and, challenged or let stand, how often NAME won the game after them.
`--exposure` splits them by how often the opponent had seen NAME challenge claims of the same
cell before (kind, NAME's cards, the race standing in coins with 7 a card, within 2 even, and
whether it was the claimant's first turn; each RUN_DIR a run of its own, from its first game,
the counts of earlier games weighed by `--decay` a game): the Beta(1, 1) mean of NAME's
challenges there, by tenths, with the share of bluffs, NAME's challenges and caught bluffs, and
the slope of the bluffs' log-odds on that rate's log-odds within cells (a logistic fit with an
intercept per cell, with its 95% interval): an opponent that learns where NAME challenges shows
a negative slope, one that does not a slope near 0.
`--curve N` is the learning curve: per block of N games (in the order played, over all RUN_DIRs
concatenated), NAME's win rate with its Wilson interval, and per game NAME's challenges of the
opponent's claims and blocks, those that met an honest claim (each cost NAME a card), and the
opponent's bluffs NAME let stand: a bot that learns its opponent shows the lost challenges
falling and the win rate rising or holding, never flat while challenges keep losing.
`--games A:B` keeps only each run's games A to B-1 (0-based) before any table: with
`--claims` and one run per seed, `--games 0:50` against `--games 150:200` shows what changed
between the start and the end of a match (who bluffs more, who challenges less).
`--self-test` checks the causes and the bluff probability on hand-made cases.
"""
import argparse
import collections
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from logistic import fit_logistic_hessian, solve  # noqa: E402
from wilson import wilson  # noqa: E402

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
        if '.txt ' in line and line.startswith(('/', 'python', 'env ')):
            toks = line.split(' ')
            k = next(j for j, t in enumerate(toks) if t.endswith('.txt'))
            pending = (toks[k + 3], toks[k + 2], toks[k + 1]) if len(toks) > k + 3 else None
            continue
        # The arbiter logs a call by its repr: in double quotes when it holds a single quote
        # (a given-up Assassin, "'").
        m = re.match(r"""(\S+) played (['"])(.*)\2$""", line)
        if m and pending:
            game['calls'].append((m.group(1),) + pending + (m.group(3),))
            pending = None
            continue
        m = re.match(r'(\S+) wins', line)
        if m:
            game['winner'] = m.group(1)
    return games


TURN_ACTIONS = 'IFETSAC'


def consecutive_calls(games):
    """(the game's calls, i, call i - 1, call i) for every call after a game's first."""
    for g in games:
        calls = g['calls']
        for i in range(1, len(calls)):
            yield calls, i, calls[i - 1], calls[i]


def answers(games, bot):
    """NAME's answers to the opponent's Assassinations and blocks."""
    table = collections.Counter()
    for calls, i, prev, cur in consecutive_calls(games):
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


BLOCKED_BY = {'F': ('d', '$'), 'S': ('ac', '~*'), 'A': ('s', '!')}


def block_rows(games, bot):
    """(action, its cards left, it held a blocker, blocked, challenged) per answer of the
    opponent to NAME's Foreign Aid, Steal or Assassination."""
    rows = []
    for _, _, prev, cur in consecutive_calls(games):
        if prev[0] != bot or cur[0] == bot or prev[4] not in BLOCKED_BY:
            continue
        blocks, cards = BLOCKED_BY[prev[4]]
        held = any(c in cur[1] for c in cards)
        rows.append((prev[4], len(cur[1]), held, cur[4] in tuple(blocks), cur[4] == 'q'))
    return rows


def blocks_table(games, bot):
    """The opponent's blocks and challenges of NAME's blockable actions, by what it held."""
    rows = block_rows(games, bot)
    count = collections.Counter((a, n, h) for a, n, h, _, _ in rows)
    blocked = collections.Counter((a, n, h) for a, n, h, b, _ in rows if b)
    challenged = collections.Counter((a, n, h) for a, n, h, _, q in rows if q)
    print('action  its-cards  it-held-a-blocker  answers  blocked  challenged')
    for k in sorted(count, key=lambda k: ('FSA'.index(k[0]), k[1], not k[2])):
        n = count[k]
        print('%-7s %-10d %-18s %7d  %7.2f  %10.2f' % (k + (n, blocked[k] / n, challenged[k] / n)))


def opening_rows(games, bot):
    """(claim, NAME's copies of the claimed card, bluff, NAME challenged, NAME won) for the
    opponent's first action of each game, when it claimed a character."""
    rows = []
    for g in games:
        calls = g['calls']
        i = next((j for j, c in enumerate(calls) if c[0] != bot and c[4][:1] in TURN_ACTIONS), None)
        if i is None or i + 1 >= len(calls) or calls[i][4][:1] not in CLAIMED:
            continue
        claim, card = calls[i][4][:1], CLAIMED[calls[i][4][:1]]
        nxt = calls[i + 1]
        if nxt[0] != bot:
            continue
        rows.append((claim, nxt[1].count(card), card not in calls[i][1], nxt[4] == 'q', g['winner'] == bot))
    return rows


def openings(games, bot):
    """The table of `opening_rows`."""
    rows = opening_rows(games, bot)
    print('claim  my-copies  openings  bluffs  I-challenged  I-won-after: an honest one challenged  a bluff challenged')
    for key in sorted({(r[0], r[1]) for r in rows}, key=lambda k: ('ETSA'.index(k[0]), k[1])):
        sel = [r for r in rows if (r[0], r[1]) == key]
        honest = [r for r in sel if r[3] and not r[2]]
        bluff = [r for r in sel if r[3] and r[2]]
        rate = lambda xs: '%.2f (%d)' % (sum(r[4] for r in xs) / len(xs), len(xs)) if xs else '-'
        print('%-6s %-10d %8d  %6.2f  %12.2f  %33s  %18s' % (
            key[0], key[1], len(sel), sum(r[2] for r in sel) / len(sel), sum(r[3] for r in sel) / len(sel),
            rate(honest), rate(bluff)))


def tally(row, bluff, challenged):
    """Counts one claim in a `[claims, bluffs, challenged, challenged bluffs]` row."""
    row[0] += 1
    row[1] += bluff
    row[2] += challenged
    row[3] += challenged and bluff


def claim_rows(games, bot):
    """{(by the opponent, kind order, kind): [claims, bluffs, challenged, challenged bluffs]}
    over each side's claims (the four actions, the four blocks)."""
    need = dict(CLAIMED, **NEED)
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    for _, _, prev, cur in consecutive_calls(games):
        kind = prev[4][:1]
        if kind not in need or cur[0] == prev[0]:
            continue
        bluff = need[kind] not in prev[1]
        challenged = cur[4] == 'q'
        tally(stats[(prev[0] != bot, 'EATSacds'.index(kind), kind)], bluff, challenged)
    return stats


def answered_claims(game, bot):
    """(kind, the claim's call, NAME's answer's call, the claimant's turns before) for each of
    the opponent's action claims in `game` that NAME answered."""
    calls = game['calls']
    turns = collections.Counter()
    for i, call in enumerate(calls):
        who, kind = call[0], call[4][:1]
        nxt = calls[i + 1] if i + 1 < len(calls) else None
        if who != bot and kind in CLAIMED and nxt is not None and nxt[0] == bot:
            yield kind, call, nxt, turns[who]
        if kind and kind in TURN_ACTIONS:
            turns[who] += 1


def truths_table(games, bot):
    """NAME's action claims the opponent answered, by kind, NAME's card count and whether NAME
    held the card: how often the opponent challenged each (one that reads NAME's record tells
    its bluffs apart from its honest claims)."""
    stats = collections.defaultdict(lambda: [0, 0])
    for _, _, prev, cur in consecutive_calls(games):
        kind = prev[4][:1]
        if prev[0] != bot or cur[0] == bot or kind not in CLAIMED:
            continue
        key = (kind, len(prev[1]), CLAIMED[kind] not in prev[1])
        stats[key][0] += 1
        stats[key][1] += cur[4] == 'q'
    print('kind  my-cards  honest  challenged   bluffs  challenged')
    for kind in 'TSAE':
        for n in (1, 2):
            h, b = stats[(kind, n, False)], stats[(kind, n, True)]
            if h[0] + b[0]:
                print('%-5s %8d  %6d  %9.1f%%  %7d  %9.1f%%' % (
                    kind, n, h[0], 100.0 * h[1] / max(h[0], 1), b[0], 100.0 * b[1] / max(b[0], 1)))


def cell_rows(games, bot):
    """{(kind, NAME's cards, race, claimant's turns before, capped at 2): [claims, bluffs,
    challenged, challenged bluffs]} over the opponent's action claims that NAME answered."""
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    for g in games:
        for kind, (_, cards, mine, other, _), nxt, turns in answered_claims(g, bot):
            race = int(mine) - int(other)
            race = 'ahead' if race > 0 else ('even' if race == 0 else 'behind')
            bluff = CLAIMED[kind] not in cards
            challenged = nxt[4] == 'q'
            tally(stats[(kind, len(nxt[1]), race, min(turns, 2))], bluff, challenged)
    return stats


def cells_table(games, bot):
    """The table of `cell_rows`, one line per cell with 10 claims or more."""
    stats = cell_rows(games, bot)
    print('kind  %s-cards  claimant  turns-before  claims  bluffs  challenged  caught' % bot)
    for key in sorted(stats, key=lambda k: ('ETSA'.index(k[0]), k[1], k[2], k[3])):
        n, b, c, cb = stats[key]
        if n >= 10:
            print('%-5s %*d  %-8s  %12s  %6d  %5.1f%%  %9.1f%%  %5.1f%%' % (
                key[0], len(bot) + 6, key[1], key[2], '2+' if key[3] == 2 else key[3], n,
                100 * b / n, 100 * c / n, 100 * cb / c if c else 0.0))


def claims_table(games, bot):
    """The table of `claim_rows`: each side's claims by kind, the share of bluffs, the share
    the other side challenged, the share of those challenges that caught a bluff, and the
    bluffs that went unchallenged."""
    stats = claim_rows(games, bot)
    print('claimant  kind  claims  bluffs  challenged  caught  unchallenged-bluffs')
    for key in sorted(stats):
        n, b, c, cb = stats[key]
        print('%-9s %-5s %6d  %5.1f%%  %9.1f%%  %5.1f%%  %19d' % (
            'opponent' if key[0] else bot, key[2], n, 100 * b / n, 100 * c / n,
            100 * cb / c if c else 0.0, b - cb))


def exposure_rows(runs, bot, decay):
    """(cell, rate, bluff, challenged) for each opponent action claim NAME answered, run by run
    in the order of the games (`--exposure`); `rate` is the Beta(1, 1) mean of NAME's
    challenges in the claim's cell over the run's earlier games (weighed by `decay` a game) and
    this game's before it: a game k games back weighs `decay` ** k."""
    rows = []
    for games in runs:
        seen = collections.defaultdict(lambda: [0.0, 0.0])
        for g in games:
            now = collections.defaultdict(lambda: [0.0, 0.0])
            for kind, (_, cards, coins, other, _), nxt, turns in answered_claims(g, bot):
                lead = (int(other) + 7 * len(nxt[1])) - (int(coins) + 7 * len(cards))
                race = 'ahead' if lead > 2 else ('behind' if lead < -2 else 'even')
                cell = (kind, len(nxt[1]), race, turns == 0)
                a, b = seen[cell], now[cell]
                rate = (a[1] + b[1] + 1) / (a[0] + b[0] + 2)
                challenged = nxt[4] == 'q'
                rows.append((cell, rate, CLAIMED[kind] not in cards, challenged))
                b[0] += 1
                b[1] += challenged
            for cell, v in now.items():
                seen[cell][0] += v[0]
                seen[cell][1] += v[1]
            for v in seen.values():
                v[0] *= decay
                v[1] *= decay
    return rows


def slope_fit(rows, ridge=1e-6):
    """The slope of a logistic regression y ~ intercept[group] + slope x over rows (group, x, y)
    and its standard error (`logistic.fit_logistic_hessian`, one indicator per group; the small
    ridge keeps a group seen only one way finite)."""
    groups = {g: i for i, g in enumerate(sorted({r[0] for r in rows}))}
    design = [([1.0 if groups[g] == i else 0.0 for i in range(len(groups))] + [x], y)
              for g, x, y in rows]
    w, h = fit_logistic_hessian(design, ridge)
    unit = [0.0] * len(groups) + [1.0]
    return w[-1], math.sqrt(solve(h, unit)[-1])


def exposure_table(runs, bot, decay):
    """The table of `exposure_rows` by tenths of the rate, and the slope within cells."""
    rows = exposure_rows(runs, bot, decay)
    print("rate seen     claims  bluffs  %s-challenged  caught" % bot)
    for tenth in range(10):
        sel = [r for r in rows if min(int(r[1] * 10), 9) == tenth]
        if sel:
            n, b = len(sel), sum(r[2] for r in sel)
            c, cb = sum(r[3] for r in sel), sum(r[2] and r[3] for r in sel)
            print('%.1f-%.1f  %10d  %5.1f%%  %*.1f%%  %5.1f%%' % (
                tenth / 10, (tenth + 1) / 10, n, 100 * b / n, len(bot) + 12, 100 * c / n,
                100 * cb / c if c else 0.0))
    if rows:
        logit = [(r[0], math.log(r[1] / (1 - r[1])), r[2]) for r in rows]
        slope, se = slope_fit(logit)
        print('%d claims, %d bluffs; slope of the bluffs\' log-odds on the rate\'s within cells: '
              '%.2f [%.2f, %.2f]' % (len(rows), sum(r[2] for r in rows), slope, slope - 1.96 * se,
                                     slope + 1.96 * se))


LOSS = "_'<=0"
REVEAL = '~^*!$'


def starts_with_one_of(answer, chars):
    """Whether the answer's first character is one of `chars` (never for an empty answer)."""
    return bool(answer) and answer[0] in chars


def loss_cause(calls, i):
    """Why the card given up at call `i` was lost, from the answers before it."""
    who, prev = calls[i][0], calls[i - 1]
    if prev[0] != who and prev[4] == 'q':
        return 'bluff caught: %s' % calls[i - 2][4] if i >= 2 else 'bluff caught'
    if prev[0] != who and starts_with_one_of(prev[4], REVEAL):
        return 'challenged an honest %s' % calls[i - 3][4] if i >= 3 else 'challenged an honest claim'
    if prev[0] != who and prev[4] in ('A', 'C'):
        return {'A': 'assassinated', 'C': 'couped'}[prev[4]]
    if prev[0] == who and starts_with_one_of(prev[4], LOSS):
        return 'double loss'
    if prev[4] == 'p' and i >= 2 and calls[i - 2][4] == 'A':
        return 'assassinated'
    return 'other (after %r)' % prev[4]


def losses(games, bot):
    """Cards given up by player and cause, and NAME's wins by the first card's cause."""
    cards, first, won = collections.Counter(), collections.Counter(), collections.Counter()
    for g in games:
        seen = False
        for i in range(1, len(g['calls'])):
            who, ans = g['calls'][i][0], g['calls'][i][4]
            if not starts_with_one_of(ans, LOSS):
                continue
            key = (who if who == bot else 'opponent', loss_cause(g['calls'], i))
            cards[key] += 1
            if not seen:
                seen = True
                first[key] += 1
                won[key] += g['winner'] == bot
    print('%d games, %s won %d' % (len(games), bot, sum(g['winner'] == bot for g in games)))
    print('%-9s %-32s %6s %12s %s' % ('gave up', 'why', 'cards', 'first card', '%s won after' % bot))
    for k, v in sorted(cards.items(), key=lambda kv: -kv[1]):
        f = first[k]
        print('%-9s %-32s %6d %12d %s' % (k + (v, f, '%.0f%%' % (100.0 * won[k] / f) if f else '')))
    for side in (bot, 'opponent'):
        f = sum(n for k, n in first.items() if k[0] == side)
        w = sum(n for k, n in won.items() if k[0] == side)
        if f:
            print('first card given up by %s: %d games, %s won %.1f%% of them' % (side, f, bot, 100.0 * w / f))


CHARS = '~^*!$'
CLAIMED = {'E': '~', 'T': '$', 'S': '*', 'A': '^'}
HANDS = [a + b for i, a in enumerate(CHARS) for b in CHARS[i:]]


def hand_prior(mine):
    """Weights of the opponent's two-card hands from the 15 cards less mine (hypergeometric)."""
    left = {c: 3 - mine.count(c) for c in CHARS}
    return {h: left[h[0]] * (left[h[0]] - 1) / 2 if h[0] == h[1] else left[h[0]] * left[h[1]]
            for h in HANDS}


def bluff_probability(action, mine, likelihood):
    """P(the claim of `action` is a bluff) given my cards and P(action | hand) = likelihood(hand)."""
    prior = hand_prior(mine)
    weight = {h: prior[h] * likelihood(h) for h in HANDS}
    total = sum(weight.values())
    return sum(w for h, w in weight.items() if CLAIMED[action] not in h) / total if total else 0.0


def by_hand(games, bot):
    """The opponent's turn-start actions by its hand, and the Brier scores of its claims."""
    table, claims = collections.defaultdict(collections.Counter), []
    for g in games:
        calls = g['calls']
        for i, (who, cards, _, _, ans) in enumerate(calls):
            turn_start = i == 0 or calls[i - 1][4].endswith('\\n') or calls[i - 1][0] != who
            if who == bot or not ans or ans[0] not in TURN_ACTIONS or not turn_start or len(cards) != 2:
                continue
            hand = ''.join(sorted(cards, key=CHARS.index))
            table[hand][ans[0]] += 1
            nxt = calls[i + 1] if i + 1 < len(calls) else None
            if ans[0] in CLAIMED and nxt and nxt[0] == bot and len(nxt[1]) == 2:
                claims.append((ans[0], hand, nxt[1]))
    print('its hand  turns  ' + '  '.join('%-5s' % a for a in TURN_ACTIONS))
    for h, c in sorted(table.items(), key=lambda kv: -sum(kv[1].values())):
        n = sum(c.values())
        print('%-9s %5d  ' % (h, n) + '  '.join('%.2f ' % (c[a] / n) for a in TURN_ACTIONS))

    def brier(likelihood, subset):
        return sum((bluff_probability(a, m, lambda h: likelihood(h, a)) - (CLAIMED[a] not in h0)) ** 2
                   for a, h0, m in subset) / len(subset)
    counts = {h: sum(c.values()) for h, c in table.items()}
    in_table = lambda h, a: (table[h][a] + 0.5) / (counts.get(h, 0) + 3.5)
    print('claim  count  bluffs  Brier: base rate  one ratio (best)  the hand table')
    for a in 'ETSA':
        sub = [c for c in claims if c[0] == a]
        if not sub:
            continue
        f = sum(CLAIMED[a] not in h for _, h, _ in sub) / len(sub)
        best = min((brier(lambda h, _a, r=r: 1.0 if CLAIMED[a] in h else r, sub), r)
                   for r in [k / 50 for k in range(1, 51)])
        print('%-6s %5d  %6.3f  %16.3f  %10.3f (%.2f)  %14.3f'
              % (a, len(sub), f, f * (1 - f), best[0], best[1], brier(in_table, sub)))


def tax_rows(games, bot):
    """Counts of the opponent's Tax claims answered by `bot`, keyed by (bot's cards, its Dukes,
    the claimant's cards, the claimant's coins after the Tax, at most 7): claims, bluffs, and for
    the challenged and the passed ones their number, bluffs and games `bot` won."""
    rows = collections.defaultdict(collections.Counter)
    for g in games:
        won = g['winner'] == bot
        for _, _, prev, cur in consecutive_calls([g]):
            if prev[0] == bot or cur[0] != bot or not prev[4].startswith('T'):
                continue
            bluff = '$' not in prev[1]
            key = (len(cur[1]), cur[1].count('$'), len(prev[1]), min(int(prev[2]) + 3, 7))
            how = 'q' if cur[4] == 'q' else 'p'
            r = rows[key]
            r['n'] += 1
            r['bluff'] += bluff
            r[how] += 1
            r[how + 'bluff'] += bluff
            r[how + 'won'] += won
    return rows


def taxes_table(games, bot):
    rows = tax_rows(games, bot)
    pct = lambda a, b: 100.0 * a / b if b else 0.0  # noqa: E731
    print('%s-cards  Dukes  claimant-cards  coins-after  claims  bluffs  | challenged  bluffs  won  '
          '| passed  bluffs  won' % bot)
    for k in sorted(rows):
        r = rows[k]
        print('%8d  %5d  %14d  %11s  %6d  %5.1f%%  | %10d  %5.1f%%  %4.0f%%  | %6d  %5.1f%%  %4.0f%%' % (
            k[0], k[1], k[2], '7+' if k[3] == 7 else k[3], r['n'], pct(r['bluff'], r['n']),
            r['q'], pct(r['qbluff'], r['q']), pct(r['qwon'], r['q']),
            r['p'], pct(r['pbluff'], r['p']), pct(r['pwon'], r['p'])))


def self_test():
    """The causes read from hand-made answer sequences (who, cards, coins, coins, answer)."""
    def calls(*answers):
        return [('Ours' if i % 2 == 0 else 'Opp', '', 0, 0, a) for i, a in enumerate(answers)]
    cases = [
        (calls('T', 'q', '0\\n'), 2, 'bluff caught: T'),        # Tax challenged, no Duke shown
        (calls('S', 'c', 'q', '*', '<'), 4, 'challenged an honest c'),  # Captain block proved
        (calls('A', "'"), 1, 'assassinated'),
        (calls('C', '='), 1, 'couped'),
        (calls('A', 'q', '^') + [('Opp', '', 0, 0, '_'), ('Opp', '', 0, 0, '=')], 3,
         'challenged an honest A'),
        (calls('A', 'q', '^') + [('Opp', '', 0, 0, '_'), ('Opp', '', 0, 0, '=')], 4,
         'double loss'),                                       # the Assassination's card after it
    ]
    for c, i, want in cases:
        got = loss_cause(c, i)
        assert got == want, (c, got, want)
    # The opponent holds a Captain against my Steal and blocks as Captain; lacks the Contessa
    # against my Assassination and gives up a card; holds no Duke against my Foreign Aid.
    game = {'calls': [('Ours', '', 0, 0, 'S'), ('Opp', '*=', 0, 0, 'c'),
                      ('Ours', '', 0, 0, 'A'), ('Opp', '$<', 0, 0, '<'),
                      ('Ours', '', 0, 0, 'F'), ('Opp', '<', 0, 0, 'p')]}
    got = block_rows([game], 'Ours')
    want = [('S', 2, True, True, False), ('A', 2, False, False, False), ('F', 1, False, False, False)]
    assert got == want, got
    # The opponent opens with a bluffed Tax (no Duke); I hold one Duke and challenge, and win.
    game = {'winner': 'Ours', 'calls': [('Ours', '$<', 0, 0, 'I\\n'), ('Opp', '*=', 0, 0, 'T'),
                                        ('Ours', '$<', 0, 0, 'q')]}
    got = opening_rows([game], 'Ours')
    assert got == [('T', 1, True, True, True)], got
    # The opponent (two cards, no Duke, 4 coins) bluffs a Tax to 7; I hold one Duke of two
    # cards and let it stand, and lose; then it claims Tax honestly on its last card at 0 coins.
    game = {'winner': 'Opp', 'calls': [('Opp', '*=', 4, 1, 'T'), ('Ours', '$<', 1, 4, 'p'),
                                       ('Opp', '$', 0, 1, 'T'), ('Ours', '$<', 1, 0, 'q')]}
    got = tax_rows([game], 'Ours')
    assert sorted(got) == [(2, 1, 1, 3), (2, 1, 2, 7)], got
    assert got[(2, 1, 2, 7)] == {'n': 1, 'bluff': 1, 'p': 1, 'pbluff': 1, 'pwon': 0}, got
    assert got[(2, 1, 1, 3)] == {'n': 1, 'bluff': 0, 'q': 1, 'qbluff': 0, 'qwon': 0}, got
    # I hold two Dukes: one Duke is left among 13 cards, in 12 of their 78 pairs; a Tax
    # claimed as often with any hand is a bluff 66 times in 78, never when only a Duke claims.
    p = bluff_probability('T', '$$', lambda h: 1.0)
    assert abs(p - 66 / 78) < 1e-12, p
    assert bluff_probability('T', '$$', lambda h: 1.0 if '$' in h else 0.0) == 0.0
    # My Tax bluff goes unchallenged; my honest Steal is blocked, its honest Captain block
    # challenged.
    game = {'calls': [('Ours', '*<', 0, 0, 'T'), ('Opp', '*=', 0, 0, 'p'),
                      ('Ours', '*<', 0, 0, 'S'), ('Opp', '*=', 0, 0, 'c'),
                      ('Ours', '*<', 0, 0, 'q')]}
    got = dict(claim_rows([game], 'Ours'))
    assert got == {(False, 2, 'T'): [1, 1, 0, 0], (False, 3, 'S'): [1, 0, 0, 0],
                   (True, 5, 'c'): [1, 0, 1, 0]}, got
    # Its opening Tax (no Duke, a coin behind) is challenged and caught; its second Tax,
    # honest and three coins behind, is let stand by my last card.
    game = {'calls': [('Ours', '*<', 2, 2, 'I\\n'), ('Opp', '*=', 2, 3, 'T'),
                      ('Ours', '*<', 3, 2, 'q'), ('Opp', '$=', 0, 3, 'T'),
                      ('Ours', '*', 3, 0, 'p')]}
    got = dict(cell_rows([game], 'Ours'))
    assert got == {('T', 2, 'behind', 0): [1, 1, 1, 1], ('T', 1, 'behind', 1): [1, 0, 0, 0]}, got
    # Its opening Tax challenged in one game, let stand in the next (same cell): the rate seen
    # is the prior's 1/2, then (1 + 1) / (1 + 2); with decay 0.5 (0.5 + 1) / (0.5 + 2).
    opening = {'calls': [('Opp', '*=', 1, 1, 'T'), ('Ours', '*<', 1, 1, 'q')]}
    stood = {'calls': [('Opp', '$=', 1, 1, 'T'), ('Ours', '*<', 1, 1, 'p')]}
    cell = ('T', 2, 'even', True)
    got = exposure_rows([[opening, stood]], 'Ours', 1.0)
    assert got == [(cell, 0.5, True, True), (cell, 2 / 3, False, False)], got
    assert exposure_rows([[opening, stood]], 'Ours', 0.5)[1][1] == 1.5 / 2.5
    # Each run starts afresh.
    assert [r[1] for r in exposure_rows([[opening], [stood]], 'Ours', 1.0)] == [0.5, 0.5]
    # The slope: 3 bluffs in 4 at x = -1, 1 in 4 at x = 1 (one cell): -logit(3/4).
    rows = [('c', -1.0, y) for y in (1, 1, 1, 0)] + [('c', 1.0, y) for y in (1, 0, 0, 0)]
    slope, se = slope_fit(rows)
    assert abs(slope + math.log(3)) < 1e-3 and 0 < se < 2, (slope, se)
    # Two games: I win the first after challenging an honest Tax and letting a Steal bluff
    # stand; I lose the second after catching a bluffed Captain block.
    won = {'winner': 'Ours', 'calls': [('Opp', '$=', 0, 0, 'T'), ('Ours', '*<', 0, 0, 'q'),
                                       ('Opp', '$=', 0, 0, '$'), ('Opp', '!=', 0, 0, 'S'),
                                       ('Ours', '*<', 0, 0, 'p')]}
    lost = {'winner': 'Opp', 'calls': [('Ours', '*<', 0, 0, 'S'), ('Opp', '!=', 0, 0, 'c'),
                                       ('Ours', '*<', 0, 0, 'q')]}
    assert curve_rows([won, lost], 'Ours', 1) == [(1, 1, 1, 1, 1, 1), (2, 1, 0, 1, 0, 0)]
    assert curve_rows([won, lost], 'Ours', 50) == [(1, 2, 1, 2, 1, 1)]
    # The arbiter logs a call by its repr: a given-up Assassin in double quotes.
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as fh:
        fh.write("--- Game 0 : Opp vs. Ours\n/o /g/0.txt 1 1 ^=\nOpp played 'A'\n"
                 "/b /g/0.txt 1 1 $^\nOurs played \"'\"\nOurs gave up a '\nOpp wins\n")
    try:
        got = parse(fh.name)
    finally:
        os.unlink(fh.name)
    assert got == [{'winner': 'Opp', 'calls': [('Opp', '^=', '1', '1', 'A'),
                                               ('Ours', '$^', '1', '1', "'")]}], got
    print('coup-games: self-test passed (%d cases)' % (len(cases) + 13))


def curve_rows(games, bot, block):
    """[(first game, games, NAME's wins, NAME's challenges, honest ones challenged, the
    opponent's bluffs let stand)] per block of `block` games, in the order played."""
    need = dict(CLAIMED, **NEED)
    rows = []
    for start in range(0, len(games), block):
        part = games[start:start + block]
        row = [start + 1, len(part), sum(g['winner'] == bot for g in part), 0, 0, 0]
        for _, _, prev, cur in consecutive_calls(part):
            kind = prev[4][:1]
            if kind not in need or prev[0] == bot or cur[0] != bot:
                continue
            bluff = need[kind] not in prev[1]
            if cur[4] == 'q':
                row[3] += 1
                row[4] += not bluff
            elif bluff:
                row[5] += 1
        rows.append(tuple(row))
    return rows


def curve_table(games, bot, block):
    """The table of `curve_rows`."""
    print('games      %s-wins  rate [95%%]            challenges/game  honest-challenged/game  '
          'bluffs-let-stand/game' % bot)
    for first, n, won, ch, honest, stood in curve_rows(games, bot, block):
        lo, hi = wilson(won, n)
        print('%4d-%-4d  %*d  %5.1f%% [%4.1f, %4.1f]  %15.2f  %22.2f  %21.2f' % (
            first, first + n - 1, len(bot) + 5, won, 100 * won / n, 100 * lo, 100 * hi,
            ch / n, honest / n, stood / n))


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('run_dir', nargs='+')
    ap.add_argument('--bot', default='Ours')
    ap.add_argument('--lost', action='store_true')
    ap.add_argument('--n', type=int, default=5)
    ap.add_argument('--answers', action='store_true')
    ap.add_argument('--losses', action='store_true')
    ap.add_argument('--by-hand', action='store_true')
    ap.add_argument('--blocks', action='store_true')
    ap.add_argument('--openings', action='store_true')
    ap.add_argument('--claims', action='store_true')
    ap.add_argument('--truths', action='store_true')
    ap.add_argument('--cells', action='store_true')
    ap.add_argument('--taxes', action='store_true')
    ap.add_argument('--exposure', action='store_true')
    ap.add_argument('--decay', type=float, default=1.0)
    ap.add_argument('--curve', type=int, default=0, metavar='N', help='the learning curve by blocks of N games')
    ap.add_argument('--games', default=None, metavar='A:B',
                    help="only each run's games A to B-1 (0-based, as a Python slice): early against late in a match")
    a = ap.parse_args()
    try:
        cut = slice(*[int(x) if x else None for x in a.games.split(':')]) if a.games else slice(None)
    except ValueError:
        print('coup-games: --games %r: expected A:B, e.g. 150:200' % a.games, file=sys.stderr)
        return 1
    runs = []
    for d in a.run_dir:
        log = os.path.join(d, 'log')
        if not os.path.exists(log):
            print('coup-games: %s not found (a folder of coup-bench.py --keep)' % log, file=sys.stderr)
            return 1
        runs.append(parse(log)[cut])
    games = [g for run in runs for g in run]
    if a.exposure:
        exposure_table(runs, a.bot, a.decay)
        return 0
    if a.curve > 0:
        curve_table(games, a.bot, a.curve)
        return 0
    for chosen, table in ((a.losses, losses), (a.by_hand, by_hand), (a.blocks, blocks_table),
                          (a.openings, openings), (a.claims, claims_table), (a.cells, cells_table),
                          (a.taxes, taxes_table), (a.answers, answers), (a.truths, truths_table)):
        if chosen:
            table(games, a.bot)
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
