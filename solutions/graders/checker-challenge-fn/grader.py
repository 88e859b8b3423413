# checker-challenge-fn's Python grader: reads n, calls `placements(n)` of the contestant's
# module `checker_challenge` (the file must be checker_challenge.py), prints as grader.cpp does.
import sys

from checker_challenge import placements

n = int(sys.stdin.readline())
count, first = placements(n)
for row in first:
    print(" ".join(map(str, row)))
print(count)
