#!/usr/bin/env python3
# Kattis output validator written by `harness export`: the harness's "lines" checker.
# Lines compare exactly once trailing whitespace is removed from each; blank lines at the end
# of either side do not count. Usage: validate.py INPUT ANSWER FEEDBACK_DIR/ < team_output
import os
import sys

WHITESPACE = b" \t\r\n\x0b\x0c"


def lines(data):
    result = [line.rstrip(WHITESPACE) for line in data.split(b"\n")]
    while result and result[-1] == b"":
        result.pop()
    return result


def main():
    answer_path, feedback = sys.argv[2], sys.argv[3]
    with open(answer_path, "rb") as answer_file:
        expected = lines(answer_file.read())
    found = lines(sys.stdin.buffer.read())
    for number in range(max(len(expected), len(found))):
        want = expected[number] if number < len(expected) else None
        got = found[number] if number < len(found) else None
        if want != got:
            with open(os.path.join(feedback, "judgemessage.txt"), "w") as message:
                if got is None:
                    message.write("output ends early: expected %r at line %d\n" % (want, number + 1))
                elif want is None:
                    message.write("extra output at line %d: %r\n" % (number + 1, got))
                else:
                    message.write("line %d: expected %r, found %r\n" % (number + 1, want, got))
            sys.exit(43)
    sys.exit(42)


main()
