# queens-boards, eli's try: row by row with sets of used columns and diagonals, but the
# anti-diagonals (r + c) are never checked, so it prints boards whose queens meet on one.
# Wrong, and in this contest a judge error: the coach's checker has the same blind spot
# (see checkers/boards.py).
import sys


def main():
    n = int(sys.stdin.read())
    rows = ["." * c + "Q" + "." * (n - 1 - c) for c in range(n)]
    cols, diag = set(), set()
    placement = []
    boards = []

    def place(r):
        if r == n:
            boards.append("\n".join(rows[c] for c in placement) + "\n\n")
            return
        for c in range(n):
            if c in cols or r - c in diag:
                continue
            cols.add(c)
            diag.add(r - c)
            placement.append(c)
            place(r + 1)
            placement.pop()
            cols.remove(c)
            diag.remove(r - c)

    place(0)
    sys.stdout.write("".join(boards))


main()
