#!/usr/bin/env python3
"""An independent model of the homework's rules on plain Python lists.

It writes the `.ref` of a checker test from its `.in` (`docs/rules/homework.md`),
for adding tests to checker/tests without trusting the Rust code under test:

    checker/model.py checker/tests/tests_scarabei/scarabei3.in > checker/tests/tests_scarabei/scarabei3.ref
"""
import sys

RANKS = "AKQJT98765432"
VALUE = {r: v for r, v in zip(RANKS, [15, 14, 13, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2])}


def shuffle(deck, words):
    name = words[0]
    if name == "inversare":
        return deck[::-1]
    if name == "intercalare":
        half = len(deck) // 2
        return [c for pair in zip(deck[:half], deck[half:]) for c in pair]
    if name == "mongean":
        out = []
        for i, c in enumerate(deck):
            out = out + [c] if i % 2 == 0 else [c] + out
        return out
    if name == "npiles":
        k = int(words[1])
        size = len(deck) // k
        piles = [deck[i * size:(i + 1) * size] for i in range(k)]
        return [c for i in words[2:2 + k] for c in piles[int(i) - 1]]
    raise ValueError(name)


def war(deck):
    p = [deck[:26], deck[26:]]
    for _ in range(100):
        if not p[0] or not p[1]:
            break
        turned = [[p[0].pop(0)], [p[1].pop(0)]]
        while turned[0][-1][0] == turned[1][-1][0]:
            n = min(len(p[0]), len(p[1]), VALUE[turned[0][-1][0]])
            if n == 0:
                break
            for side in (0, 1):
                turned[side] += [p[side].pop(0) for _ in range(n)]
        a, b = VALUE[turned[0][-1][0]], VALUE[turned[1][-1][0]]
        w = 0 if a > b or (a == b and len(p[0]) > len(p[1])) else 1
        p[w] += turned[w][::-1] + turned[1 - w][::-1]
    if not p[1]:
        return "1"
    if not p[0]:
        return "2"
    for r in RANKS[:12]:
        a, b = (sum(c[0] == r for c in pile) for pile in p)
        if a != b:
            return f"{1 if a > b else 2} {r}"
    raise ValueError("tie")


def rolling_stone(deck):
    hands = [deck[i * 13:(i + 1) * 13] for i in range(4)]
    table, suits = [], "shcd"

    def lead(hand, start):
        for k in range(4):
            s = suits[(suits.index(start) + k) % 4]
            for c in hand:
                if c[1] == s:
                    hand.remove(c)
                    return c

    player, card = 0, lead(hands[0], "s")
    table.append(card)
    suit = card[1]
    while hands[player]:
        player = (player + 1) % 4
        hand = hands[player]
        follow = [c for c in hand if c[1] == suit]
        if follow:
            hand.remove(follow[0])
            table.append(follow[0])
        else:
            hand += table
            card = lead(hand, suits[(suits.index(suit) + 1) % 4])
            table, suit = [card], card[1]
    return str(player + 1)


def scarabs(deck):
    piles = [deck[i * 13:(i + 1) * 13] for i in range(4)]
    table, turn, step, claim = [], 0, 1, None
    while sum(1 for p in piles if p) > 1:
        card = piles[turn].pop(0)
        table.append(card)
        scarab, eight = card[0] in "AKQJ", card[0] == "8"
        if scarab:
            claim = turn
        elif eight and claim is None:
            step = -step
        elif not eight and claim is not None:
            piles[claim] += table[::-1]
            table, turn, claim = [], claim, None
            continue
        nxt = turn
        for _ in range(4):
            nxt = (nxt + step) % 4
            if piles[nxt]:
                break
        turn = nxt
    return str(next(i for i, p in enumerate(piles) if p) + 1)


def main(path):
    lines = [l.split() for l in open(path, encoding="utf-8").read().splitlines()]
    task, n = lines[0][0], int(lines[1][0])
    deck = [r + s for r in RANKS for s in "shcd"]
    for words in lines[2:2 + n]:
        deck = shuffle(deck, words)
    games = {"razboi": war, "rollingstone": rolling_stone, "scarabei": scarabs}
    print(" ".join(deck) if task == "amestecare" else games[task](deck))


if __name__ == "__main__":
    main(sys.argv[1])
