#!/usr/bin/env python3
# synopsis.py TOOL [COMMAND...] - print the roff SYNOPSIS lines of TOOL's
# commands, generated from the binary ('TOOL COMMAND --help --json'), for
# pasting into man/TOOL.1 (tests/cli/man_in_step.sh checks they agree).
import json, re, subprocess, sys

tool = sys.argv[1]
name = tool.rsplit('/', 1)[-1]
cmds = sys.argv[2:]
if not cmds:
    env = json.loads(subprocess.run([tool, '--help', '--json'],
                                    capture_output=True).stdout)
    cmds = [c['name'] for c in env['result']['commands']]


def esc(s):
    return s.replace('-', '\\-')


def tokens(syn):
    """Words and whole [...] groups of a synopsis string."""
    return re.findall(r'\[[^\]]*\]|\S+', syn)


for i, c in enumerate(cmds):
    env = json.loads(subprocess.run([tool, c, '--help', '--json'],
                                    capture_output=True).stdout)
    syn = env['result']['synopsis']
    toks = tokens(syn)[2:]
    if i:
        print('.br')
    print('.B %s' % name)
    print('.RI [ COMMON ]')
    print('.B %s' % c)
    j = 0
    while j < len(toks):
        t = toks[j]
        if t == '[COMMON]':
            pass
        elif t.startswith('['):
            words = t[1:-1].split()
            if len(words) == 1:
                print('.RB [ %s ]' % esc(words[0]))
            else:
                print('.RB [ %s' % esc(words[0]))
                print('.IR %s ]' % esc(' '.join(words[1:])))
        elif t.startswith('--'):
            print('.B %s' % esc(t))
            if j + 1 < len(toks) and not toks[j + 1].startswith(('-', '[')):
                j += 1
                print('.I %s' % esc(toks[j]))
        else:
            print('.I %s' % esc(t))
        j += 1
