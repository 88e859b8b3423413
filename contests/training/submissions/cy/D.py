# two-n-queens, accepted, in Python: the single-colour placements on the usable squares as
# sets of squares (bit 8*row + column), then the ordered pairs that share no square.
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    cells = list(map(int, data[1:1 + n * n]))
    full = (1 << n) - 1
    usable = [sum(1 << c for c in range(n) if cells[r * n + c]) for r in range(n)]
    placements = []

    def place(row, cols, left, right, squares):
        if row == n:
            placements.append(squares)
            return
        free = usable[row] & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            place(row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1,
                  squares | bit << (8 * row))

    place(0, 0, 0, 0, 0)
    print(sum(1 for a in placements for b in placements if not a & b))


main()
