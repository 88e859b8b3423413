#!/usr/bin/env python3
# queens-relay's manager, a CMS Communication manager: argv holds the FIFOs of process 0 and
# process 1 (user_to_manager, manager_to_user each), stdin the case's "n hidden". Process 0 is
# told n and answers a placement of n queens; process 1 is told n and that placement with the
# queen of row `hidden` taken away (0), and answers its column. stdout: the score (1.0 both
# right, 0.5 only the placement, 0.0 none); stderr: the message.
import sys


def attacks(columns):
    """Why `columns` (1-based, one per row) is not a placement, or None."""
    n = len(columns)
    if sorted(columns) != list(range(1, n + 1)):
        return "not one queen in each column"
    for a in range(n):
        for b in range(a + 1, n):
            if abs(columns[a] - columns[b]) == b - a:
                return f"the queens of rows {a + 1} and {b + 1} share a diagonal"
    return None


def ask(index, text):
    """Tells process `index` the text and reads its answer line ("" when it said nothing)."""
    from_user, to_user = sys.argv[1 + 2 * index], sys.argv[2 + 2 * index]
    try:
        # Both ends first, as CMS managers open them: the process starts once they are open.
        with open(from_user) as answers, open(to_user, "w") as out:
            out.write(text)
            out.close()
            return answers.readline().strip()
    except BrokenPipeError:
        return ""


def main():
    n, hidden = map(int, sys.stdin.read().split())
    said = ask(0, f"{n}\n")
    try:
        columns = [int(word) for word in said.split()]
    except ValueError:
        columns = []
    why = attacks(columns) if len(columns) == n else f"{len(columns)} numbers, not {n}"
    if why:
        # Process 1 is still told something, so that it ends on its own.
        ask(1, f"{n}\n{' '.join(['0'] * n)}\n")
        print("0.0")
        print(f"process 0: {why}", file=sys.stderr)
        return
    shown = list(columns)
    shown[hidden - 1] = 0
    answer = ask(1, f"{n}\n{' '.join(map(str, shown))}\n")
    if answer == str(columns[hidden - 1]):
        print("1.0")
        print("translate:success", file=sys.stderr)
    else:
        print("0.5")
        print(f"process 1: row {hidden} is in column {columns[hidden - 1]}, not `{answer[:20]}`", file=sys.stderr)


main()
