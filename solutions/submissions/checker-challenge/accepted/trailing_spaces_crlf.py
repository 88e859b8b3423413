# checker-challenge, accepted: right answers written with a space after every number and
# Windows line ends (CRLF), as many accepted programs print them. The statement says judges
# ignore trailing spaces, so this must be AC. (The search is the mirror-trick one of
# symmetry.py; the point here is the format.)
import sys


def main():
    n = int(sys.stdin.read())
    full = (1 << n) - 1
    last = n - 1
    first = []

    def firsts(row, cols, left, right, placed):
        free = full & ~(cols | left | right)
        while free and len(first) < 3:
            bit = free & -free
            free ^= bit
            if row == last:
                first.append(placed + [bit.bit_length()])
            else:
                firsts(row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1,
                       placed + [bit.bit_length()])

    def count(row, cols, left, right):
        free = full & ~(cols | left | right)
        if row == last:
            return 1 if free else 0
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += count(row + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    firsts(0, 0, 0, 0, [])
    total = 0
    for c in range(n // 2):
        bit = 1 << c
        total += 2 * count(1, bit, (bit << 1) & full, bit >> 1)
    if n % 2:
        bit = 1 << (n // 2)
        total += count(1, bit, (bit << 1) & full, bit >> 1)
    out = sys.stdout.buffer
    for placement in first:
        out.write(("".join(f"{c} " for c in placement) + "\r\n").encode())
    out.write(f"{total} \r\n".encode())


main()
