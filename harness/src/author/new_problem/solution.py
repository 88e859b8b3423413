# The reference solution of `@ID@`, a stub written by `harness new`: judge.toml's `solution`
# (what `harness run` judges) and `reference` (what answers the generated cases). Stored
# under accepted/, `harness verify @ID@` checks that it gets AC.
a, b = map(int, input().split())
print(a + b)
