// The reference solution of `@ID@`, a stub written by `harness new --grader`: it implements
// the function the grader calls. Stored under accepted/, `harness verify @ID@` compiles it
// with the grader and checks that it gets AC; `harness judge @ID@ FILE` does so with yours.
#include "@ID@.h"

long long sum(long long a, long long b) { return a + b; }
