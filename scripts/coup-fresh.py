#!/usr/bin/env python3
"""Runs a Coup bot command in a fresh working folder per game (memory disabled).

usage: coup-fresh.py BOT [ARGS...] HISTORY OPP_COINS MY_COINS CARDS LEGAL...
The folder is ./fresh/<history file name> under the arbiter-given working folder, so
nothing the bot writes in one game is visible in another. Output and exit status are
passed through.
"""
import os
import subprocess
import sys

args = sys.argv[1:]
# The history file is the first argument ending in .txt (bot args come before it).
i = next(k for k, x in enumerate(args) if x.endswith('.txt'))
d = os.path.join(os.getcwd(), 'fresh', os.path.basename(args[i]))
os.makedirs(d, exist_ok=True)
sys.exit(subprocess.call(args, cwd=d))
