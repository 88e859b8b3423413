# queens-relay, time limit exceeded: process 0 reads n and never answers; the judge kills it
# at the wall bound, and the manager, which waits for its line, reads end of file then.
import sys
import time

input()
if sys.argv[1] == "0":
    time.sleep(1000)
