#!/usr/bin/env python3
"""Runs a Python Coup bot with its random generator seeded from the call, so a bot that draws
unseeded answers (../shared/coup/standin.py's random strategy, every stand-in's Exchange keep)
replays: the same game, seed and call give the same answer.

usage: coup-seeded.py BOT.py BOT_ARGS... HISTORY_FILE OPP_COINS MY_COINS CARDS LEGAL...
(scripts/coup-bench.py passes the stand-in and its strategy; the arbiter appends the rest.)

The seed is the history file's name and content and every argument but the bot's path: what
the bot can see of the game, and nothing of the folder the run happens to use.
"""
import os
import random
import runpy
import sys


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    bot, rest = sys.argv[1], sys.argv[2:]
    seed = [os.path.basename(a) for a in rest]
    for a in rest:
        if os.path.isfile(a):
            with open(a, 'rb') as f:
                seed.append(f.read().decode('latin-1'))
            break
    random.seed('\0'.join(seed))
    sys.argv = [bot] + rest
    runpy.run_path(bot, run_name='__main__')
    return 0


if __name__ == '__main__':
    sys.exit(main())
