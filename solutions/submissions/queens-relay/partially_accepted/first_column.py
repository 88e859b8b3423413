# queens-relay, partially accepted: process 0 places the queens right, but process 1 always
# answers column 1, so a case scores half unless the hidden queen is in column 1.
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
    input()
    input()
    print(1, flush=True)
