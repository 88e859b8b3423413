#!/usr/bin/env python3
"""The generator of `@ID@`, a stub written by `harness new`: prints one input for the seed
given as its first argument. `harness gen @ID@` runs it once per seed of the problem's
[[problems.@ID@.generators]] in judge.toml; the same seed must print the same input, so that
`harness gen --check` rebuilds every case byte for byte."""

import random
import sys

rng = random.Random(int(sys.argv[1]))
print(rng.randint(-10**9, 10**9), rng.randint(-10**9, 10**9))
