# Runs an external Coup bot program (Python 2 source, e.g. the contest's
# Calculator) on many positions in one interpreter, for the replica's
# differential test (tests/coup_replica.rs). Not part of that program.
#
# usage: python2 calculator_driver.py PROGRAM CASES.jsonl OUT.jsonl WORKDIR
# Each case: {"file", "history", "state", "opp", "me", "cards", "legal"}; for
# each, WORKDIR/state.txt and the history file are written, the program runs
# with its command line (cwd WORKDIR), and {"appended", "stdout", "state",
# "error"} is written out.
import json
import os
import sys
import StringIO

program, cases, out, work = sys.argv[1:5]
code = compile(open(program).read(), program, 'exec')
os.chdir(work)
o = open(out, 'w')
for raw in open(cases):
    c = json.loads(raw)
    f = str(c['file'])
    hist = c['history'].encode('utf-8')
    open(f, 'w').write(hist)
    open('state.txt', 'w').write(c['state'].encode('utf-8'))
    sys.argv = [program, f, str(c['opp']), str(c['me']), str(c['cards'])] + [str(x) for x in c['legal']]
    buf = StringIO.StringIO()
    old = sys.stdout
    sys.stdout = buf
    err = None
    try:
        exec code in {'__name__': '__main__'}
    except BaseException as e:
        err = repr(e)
    sys.stdout = old
    text = open(f).read()
    o.write(json.dumps({'appended': text[len(hist):], 'stdout': buf.getvalue(),
                        'state': open('state.txt').read(), 'error': err}) + '\n')
o.close()
