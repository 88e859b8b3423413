# queens-relay, accepted: process 0 finds the first placement by backtracking; process 1
# answers the one column the placement it is shown does not use.
import sys


def place(n):
    columns = []

    def extend(row):
        if row == n:
            return True
        for column in range(1, n + 1):
            if all(c != column and abs(c - column) != row - r for r, c in enumerate(columns)):
                columns.append(column)
                if extend(row + 1):
                    return True
                columns.pop()
        return False

    extend(0)
    return columns


if sys.argv[1] == "0":
    n = int(input())
    print(" ".join(map(str, place(n))), flush=True)
else:
    n = int(input())
    shown = set(map(int, input().split()))
    print(next(c for c in range(1, n + 1) if c not in shown), flush=True)
