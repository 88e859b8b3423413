// two-n-queens, wrong answer: checks the 0/1 board for the white queens only; black queens
// may stand on unusable squares. Boards that are all 1 (and boards where white cannot be
// placed at all) still get the right count, so only some cases catch it.
#include <cstdio>
#include <cstdint>
#include <vector>

static int n, full;
static int usable[8];

static void place(const int *rows, int r, int cols, int left, int right, uint64_t squares,
                  std::vector<uint64_t> &out) {
    if (r == n) {
        out.push_back(squares);
        return;
    }
    int free = rows[r] & ~(cols | left | right);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        place(rows, r + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1,
              squares | (uint64_t)bit << (8 * r), out);
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
    int anywhere[8];
    for (int r = 0; r < n; r++) anywhere[r] = full;
    std::vector<uint64_t> white, black;
    place(usable, 0, 0, 0, 0, 0, white);
    place(anywhere, 0, 0, 0, 0, 0, black);
    long long pairs = 0;
    for (uint64_t w : white)
        for (uint64_t b : black)
            if (!(w & b)) pairs++;
    printf("%lld\n", pairs);
    return 0;
}
