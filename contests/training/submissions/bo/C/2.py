# king-queens, run-time error: reads the input line as one number, as for the plain n-queens
# problem; `int("8 2 2")` raises ValueError and Python exits with status 1.
n = int(input())
print(n)
