# The coach's own checker for problem A (queens-boards), with testlib's exit codes: 0 AC,
# 1 WA, 3 the checker fails (a judge error). Run as `boards.py INPUT OUTPUT ANSWER`.
#
# It checks each board the team prints rather than comparing text, so that any order passes;
# a valid board the answer file lacks can only mean the answer file is wrong, so it fails
# (testlib's `_fail`) rather than blame the team.
#
# It has the bug this example keeps on purpose: `valid` forgets the anti-diagonals (r + c).
# A team with the same blind spot prints boards whose queens meet on one; this checker takes
# them for valid boards missing from the answer, and fails: a judge error on that try, which
# `harness contest` shows pending, as DOMjudge does, until the checker is mended (add the
# `r + c` test) and the try judged again (then it is WA).
import sys


def boards(text):
    """The blank-line-separated blocks of `text`, each as its list of rows."""
    blocks, block = [], []
    for line in text.splitlines():
        line = line.strip()
        if line:
            block.append(line)
        elif block:
            blocks.append(block)
            block = []
    if block:
        blocks.append(block)
    return blocks


def valid(board, n):
    if len(board) != n or any(len(row) != n or set(row) - {"Q", "."} for row in board):
        return False
    if any(row.count("Q") != 1 for row in board):
        return False
    columns = [row.index("Q") for row in board]
    return len(set(columns)) == n and len({r - c for r, c in enumerate(columns)}) == n


def main():
    input_file, output_file, answer_file = sys.argv[1:4]
    with open(input_file) as f:
        n = int(f.read())
    with open(answer_file) as f:
        expected = {"\n".join(b) for b in boards(f.read())}
    with open(output_file) as f:
        printed = boards(f.read())
    seen = set()
    for number, board in enumerate(printed, 1):
        if not valid(board, n):
            print(f"board {number} is not an n-queens board", file=sys.stderr)
            sys.exit(1)
        text = "\n".join(board)
        if text in seen:
            print(f"board {number} is printed twice", file=sys.stderr)
            sys.exit(1)
        seen.add(text)
        if text not in expected:
            print(
                f"board {number} is valid but not in the answer file: the answer must be wrong",
                file=sys.stderr,
            )
            sys.exit(3)
    if len(seen) < len(expected):
        print(f"{len(expected) - len(seen)} of {len(expected)} boards are missing", file=sys.stderr)
        sys.exit(1)
    print(f"all {len(expected)} boards", file=sys.stderr)
    sys.exit(0)


main()
