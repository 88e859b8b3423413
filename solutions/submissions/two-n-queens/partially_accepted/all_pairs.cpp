// two-n-queens, partially accepted: right, but it tries every pair of permutations (n!² of
// them, 1.6·10⁹ at n = 8) before checking either, so it is too slow for 8 × 8 boards and
// scores the `small` and `middle` subtasks only.
// @EXPECTED_SCORE@: 60
#include <algorithm>
#include <cstdio>
#include <cstdlib>

static int n, usable[8][8];

// Whether queens at (row, p[row]) are a valid placement: usable squares, no shared diagonal.
static bool valid(const int *p) {
    for (int r = 0; r < n; r++) {
        if (!usable[r][p[r]]) return false;
        for (int s = 0; s < r; s++)
            if (std::abs(p[r] - p[s]) == r - s) return false;
    }
    return true;
}

int main() {
    if (std::scanf("%d", &n) != 1) return 1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (std::scanf("%d", &usable[r][c]) != 1) return 1;
    int black[8], white[8];
    for (int i = 0; i < n; i++) black[i] = i;
    long long count = 0;
    do {
        for (int i = 0; i < n; i++) white[i] = i;
        do {
            bool apart = true;
            for (int r = 0; r < n; r++)
                if (black[r] == white[r]) apart = false;
            if (apart && valid(black) && valid(white)) count++;
        } while (std::next_permutation(white, white + n));
    } while (std::next_permutation(black, black + n));
    std::printf("%lld\n", count);
    return 0;
}
