#!/usr/bin/env python3
"""Runs a Coup bot command and records the call (diagnostics): appends one JSON line per call
to $COUP_CALLS_LOG (default ./coup-calls.jsonl in the working folder) with the history text
before the answer, the history file's name and the arguments, then runs the bot.

usage: coup-calls.py BOT [ARGS...] HISTORY OPP_COINS MY_COINS CARDS LEGAL...
Used by `coup-replay` to compare the bot's answers with and without a memory file on the same
calls. Output and exit status of the bot are passed through.
"""
import json
import os
import subprocess
import sys

args = sys.argv[1:]
if args[:1] in (['-h'], ['--help']):
    print(__doc__.strip())
    sys.exit(0)
i = next((k for k, x in enumerate(args) if x.endswith('.txt')), None)
if i is None:
    sys.exit('coup-calls.py: no history file (an argument ending in .txt); see --help')
try:
    with open(args[i]) as f:
        hist = f.read()
except OSError:
    hist = ''
rec = {'file': os.path.basename(args[i]), 'history': hist, 'args': args[i + 1:]}
with open(os.environ.get('COUP_CALLS_LOG', 'coup-calls.jsonl'), 'a') as f:
    f.write(json.dumps(rec) + '\n')
sys.exit(subprocess.call(args))
