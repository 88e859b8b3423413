# find-the-queens, wrong answer: a debugging line left on stdout. The interactor reads it as
# the first request and rejects it; the search itself is right.
import sys


def main():
    n = int(sys.stdin.readline())
    print("debug: n =", n, flush=True)
    found = []
    for row in range(n):
        free = [c for c in range(1, n + 1)
                if all(q != c and abs(q - c) != row - r for r, q in enumerate(found))]
        lo, hi = 0, len(free)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            print("?", row + 1, free[mid], flush=True)
            reply = sys.stdin.readline().strip()
            if reply == "here":
                lo, hi = mid, mid + 1
            elif reply == "left":
                hi = mid
            else:
                lo = mid + 1
        found.append(free[lo])
    print("!", *found, flush=True)


main()
