# queens-boards, accepted, in Python: row by row with sets of used columns and diagonals,
# the boards joined into one string and written once.
import sys


def main():
    n = int(sys.stdin.read())
    rows = ["." * c + "Q" + "." * (n - 1 - c) for c in range(n)]
    cols, diag1, diag2 = set(), set(), set()
    placement = []
    boards = []

    def place(r):
        if r == n:
            boards.append("\n".join(rows[c] for c in placement) + "\n\n")
            return
        for c in range(n):
            if c in cols or r + c in diag1 or r - c in diag2:
                continue
            cols.add(c)
            diag1.add(r + c)
            diag2.add(r - c)
            placement.append(c)
            place(r + 1)
            placement.pop()
            cols.remove(c)
            diag1.remove(r + c)
            diag2.remove(r - c)

    place(0)
    sys.stdout.write("".join(boards))


main()
