#!/usr/bin/env python3
"""The checker of `queens-any` (an output-only task): any placement of n queens that do not
attack each other is right, so the answer file only says whether one exists.

Called as testlib calls a checker, `queens-any.py INPUT OUTPUT ANSWER`: exit 0 accepted,
1 wrong answer (the reason on stderr), 3 when the case itself is broken (a judge error).
"""

import sys

OK, WRONG, FAIL = 0, 1, 3


def verdict(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


def main():
    if len(sys.argv) != 4:
        verdict(FAIL, "usage: queens-any.py INPUT OUTPUT ANSWER")
    input_path, output_path, answer_path = sys.argv[1:]
    try:
        with open(input_path, encoding="ascii") as f:
            n = int(f.read().split()[0])
        with open(answer_path, encoding="ascii") as f:
            exists = f.read().split() != ["impossible"]
    except (OSError, ValueError, IndexError) as error:
        verdict(FAIL, f"the case is broken: {error}")
    with open(output_path, "rb") as f:
        tokens = f.read().split()
    if tokens == [b"impossible"]:
        if exists:
            verdict(WRONG, f"said impossible, but {n} queens fit on a {n}x{n} board")
        verdict(OK, "impossible, rightly")
    if not exists:
        verdict(WRONG, f"no placement of {n} queens exists: the answer is `impossible`")
    if len(tokens) != n:
        verdict(WRONG, f"expected {n} columns, one per row, found {len(tokens)} tokens")
    columns = []
    for row, token in enumerate(tokens, start=1):
        if not token.isdigit() or not 1 <= int(token) <= n:
            shown = token[:20].decode("ascii", "replace")
            verdict(WRONG, f"row {row}: `{shown}` is not a column from 1 to {n}")
        columns.append(int(token))
    seen = {}
    for row, column in enumerate(columns, start=1):
        for key in (("column", column), ("diagonal", row - column), ("anti-diagonal", row + column)):
            if key in seen:
                verdict(WRONG, f"the queens of rows {seen[key]} and {row} share a {key[0]}")
            seen[key] = row
    verdict(OK, f"{n} queens, none attacked")


main()
