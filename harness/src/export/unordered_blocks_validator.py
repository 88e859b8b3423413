#!/usr/bin/env python3
# Kattis output validator written by `harness export`: the harness's "unordered-blocks"
# checker. Blocks are runs of non-blank lines (trailing whitespace removed), compared as a
# multiset: any order, each exactly as often as in the answer.
# Usage: validate.py INPUT ANSWER FEEDBACK_DIR/ < team_output
import collections
import os
import sys

WHITESPACE = b" \t\r\n\x0b\x0c"


def blocks(data):
    result, current = [], []
    for line in data.split(b"\n"):
        line = line.rstrip(WHITESPACE)
        if line:
            current.append(line)
        elif current:
            result.append(b"\n".join(current))
            current = []
    if current:
        result.append(b"\n".join(current))
    return result


def reject(feedback, why):
    with open(os.path.join(feedback, "judgemessage.txt"), "w") as message:
        message.write(why + "\n")
    sys.exit(43)


def main():
    answer_path, feedback = sys.argv[2], sys.argv[3]
    with open(answer_path, "rb") as answer_file:
        expected = collections.Counter(blocks(answer_file.read()))
    found = blocks(sys.stdin.buffer.read())
    seen = collections.Counter()
    for number, block in enumerate(found, 1):
        seen[block] += 1
        if seen[block] > expected[block]:
            if expected[block] == 0:
                reject(feedback, "block %d is not an expected block" % number)
            reject(feedback, "block %d appears more often than in the answer" % number)
    missing = sum((expected - seen).values())
    if missing:
        reject(feedback, "missing %d of %d expected blocks" % (missing, sum(expected.values())))
    sys.exit(42)


main()
