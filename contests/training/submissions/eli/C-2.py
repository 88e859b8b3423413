# king-queens, accepted, in Python: the n-queens count by bit masks, each row limited to the
# squares away from the king; the last row is counted without another call.
import sys


def main():
    n, x, y = map(int, sys.stdin.read().split())
    full = (1 << n) - 1
    allowed = [full] * n
    for r in range(x - 2, x + 1):
        for c in range(y - 2, y + 1):
            if 0 <= r < n and 0 <= c < n:
                allowed[r] &= ~(1 << c)
    last = n - 1

    def place(row, cols, left, right):
        free = allowed[row] & ~(cols | left | right)
        if row == last:
            return 1 if free else 0
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += place(row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    print(place(0, 0, 0, 0))


main()
