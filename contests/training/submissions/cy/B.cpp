// checker-challenge, accepted: bit-mask search, lowest column first, so the placements come
// in lexicographic order and the first three are the first three found.
#include <cstdio>

static int n, full, found;
static int col_of[13];

static void place(int r, int cols, int left, int right) {
    if (r == n) {
        if (++found <= 3)
            for (int i = 0; i < n; i++) printf("%d%c", col_of[i] + 1, i + 1 < n ? ' ' : '\n');
        return;
    }
    int free = full & ~(cols | left | right);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        col_of[r] = __builtin_ctz(bit);
        place(r + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    full = (1 << n) - 1;
    place(0, 0, 0, 0);
    printf("%d\n", found);
    return 0;
}
