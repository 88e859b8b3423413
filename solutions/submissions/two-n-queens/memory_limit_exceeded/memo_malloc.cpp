// two-n-queens, memory limit exceeded through malloc: a memo table for every (row, squares
// used) state, 2^28 ints filled with -1 (1 GiB) before the search, over the 512 MiB limit.
// Filling with -1 touches every page, as contest memo tables do.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    size_t states = (size_t)1 << 28;
    int *memo = (int *)malloc(states * sizeof(int));
    if (!memo) return 1;
    memset(memo, -1, states * sizeof(int));
    printf("%d\n", memo[n] + 1);
    free(memo);
    return 0;
}
