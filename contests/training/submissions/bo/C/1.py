# king-queens, wrong answer: the king's columns are clipped to the board with `min(n - 1, …)`
# where `min(n, …)` was meant, so when the king stands in one of the two rightmost columns the
# squares of the last column beside him stay open. Every other case is right: only the cases
# with the king at the right edge catch it.
import sys


def main():
    n, x, y = map(int, sys.stdin.read().split())
    full = (1 << n) - 1
    allowed = [full] * n
    for r in range(max(0, x - 2), min(n, x + 1)):
        for c in range(max(0, y - 2), min(n - 1, y + 1)):
            allowed[r] &= ~(1 << c)

    def place(row, cols, left, right):
        if row == n:
            return 1
        total = 0
        free = allowed[row] & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += place(row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    print(place(0, 0, 0, 0))


main()
