// two-n-queens, accepted: every single-colour placement on the usable squares as a 64-bit
// set of squares, then the ordered pairs (black, white) that share no square.
#include <cstdio>
#include <cstdint>
#include <vector>

static int n, full;
static int usable[8];
static std::vector<uint64_t> placements;

static void place(int r, int cols, int left, int right, uint64_t squares) {
    if (r == n) {
        placements.push_back(squares);
        return;
    }
    int free = usable[r] & ~(cols | left | right);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        place(r + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1,
              squares | (uint64_t)bit << (8 * r));
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    full = (1 << n) - 1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int v;
            if (scanf("%d", &v) != 1) return 1;
            if (v) usable[r] |= 1 << c;
        }
    place(0, 0, 0, 0, 0);
    long long pairs = 0;
    for (uint64_t a : placements)
        for (uint64_t b : placements)
            if (!(a & b)) pairs++;
    printf("%lld\n", pairs);
    return 0;
}
