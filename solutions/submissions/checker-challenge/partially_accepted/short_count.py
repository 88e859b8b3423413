# checker-challenge, partially accepted: symmetry.py with its count kept in 16 bits, as a C
# `short` would keep it: right up to n = 12 (14200 placements), wrong at n = 13 (73712), so
# it scores 7 of the 8 test points, as Luogu would give them.
# @EXPECTED_SCORE@: 87.5
import sys


def main():
    n = int(sys.stdin.read())
    full = (1 << n) - 1
    last = n - 1
    first = []

    def firsts(row, cols, left, right, placed):
        # Only until three placements are found: lexicographic order, lowest column first.
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
    out = [" ".join(map(str, p)) for p in first]
    out.append(str(total & 0xFFFF))
    sys.stdout.write("\n".join(out) + "\n")


main()
