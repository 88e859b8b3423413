# find-the-queens, run-time error: reads the reply as a number, as in a guess-the-number
# problem; `int("left")` raises ValueError at the first query that has a reply.
import sys


def main():
    n = int(sys.stdin.readline())
    found = []
    for row in range(n):
        lo, hi = 1, n
        while lo < hi:
            mid = (lo + hi) // 2
            print("?", row + 1, mid, flush=True)
            reply = int(sys.stdin.readline())
            if reply == 0:
                lo = hi = mid
            elif reply < 0:
                hi = mid - 1
            else:
                lo = mid + 1
        found.append(lo)
    print("!", *found, flush=True)


main()
