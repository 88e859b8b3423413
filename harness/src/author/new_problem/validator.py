#!/usr/bin/env python3
"""The input validator of `@ID@`, a stub written by `harness new`: reads an input on stdin
and exits 42 when it obeys the statement, else 43 with the reason on stderr (the Kattis
protocol: `validator-protocol = "kattis"` in judge.toml). `harness validate @ID@` runs it on
every case, and `harness export @ID@` puts it into the package as it is."""

import re
import sys

INTEGER = r"(0|-?[1-9][0-9]*)"


def invalid(why):
    print(why, file=sys.stderr)
    sys.exit(43)


text = sys.stdin.read()
if not re.fullmatch(f"{INTEGER} {INTEGER}\n", text):
    invalid("expected one line: two integers separated by one space")
for name, value in zip("ab", map(int, text.split())):
    if not -10**9 <= value <= 10**9:
        invalid(f"{name} = {value} is out of [-10^9, 10^9]")
sys.exit(42)
