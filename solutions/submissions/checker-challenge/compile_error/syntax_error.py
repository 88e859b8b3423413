# checker-challenge, compile error: a Python syntax error (a missing colon). The byte-compile
# step turns it into CE, as judges do, instead of an RE on every case.
import sys

def main()
    n = int(sys.stdin.read())
    print(n)

main()
