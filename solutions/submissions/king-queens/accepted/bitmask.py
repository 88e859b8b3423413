# king-queens, accepted, in Python: the n-queens count by bit masks, each row limited to the
# squares away from the king. An explicit stack, not recursion: PyPy's JIT compiles the one
# loop at once, where a recursive search spent most of its time warming up.
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
    total = 0
    # Each entry: a row and what its queens so far attack there.
    stack = [(0, 0, 0, 0)]
    while stack:
        row, cols, left, right = stack.pop()
        free = allowed[row] & ~(cols | left | right)
        if row == last:
            if free:
                total += 1
            continue
        while free:
            bit = free & -free
            free ^= bit
            stack.append((row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1))
    print(total)


main()
