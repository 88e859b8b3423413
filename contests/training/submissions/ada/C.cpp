// king-queens, accepted: the n-queens count by bit masks, with each row's squares around the
// king (his own and the up-to-8 beside it) removed from what the row may use.
#include <cstdio>

static int n, full;
static int allowed[12];

static long long place(int r, int cols, int left, int right) {
    if (r == n) return 1;
    long long total = 0;
    int free = allowed[r] & ~(cols | left | right);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        total += place(r + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

int main() {
    int x, y;
    if (scanf("%d %d %d", &n, &x, &y) != 3) return 1;
    full = (1 << n) - 1;
    for (int r = 0; r < n; r++) {
        allowed[r] = full;
        if (r >= x - 2 && r <= x) {
            for (int c = y - 2; c <= y; c++)
                if (c >= 0 && c < n) allowed[r] &= ~(1 << c);
        }
    }
    printf("%lld\n", place(0, 0, 0, 0));
    return 0;
}
