// checker-challenge-fn, wrong answer: forgets the anti-diagonals, so it counts placements where
// two checkers share one (and its first three are wrong from n = 6 on).
#include <vector>

#include "checker_challenge.h"

namespace {
int size, full;
long long found;
std::vector<int> columns;
std::vector<std::vector<int>>* out;

void place(int row, int cols, int left) {
    if (row == size) {
        if (++found <= 3) out->push_back(columns);
        return;
    }
    int free = full & ~(cols | left);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        columns[row] = __builtin_ctz(bit) + 1;
        place(row + 1, cols | bit, (left | bit) << 1);
    }
}
}  // namespace

long long placements(int n, std::vector<std::vector<int>>& first) {
    size = n;
    full = (1 << n) - 1;
    found = 0;
    columns.assign(n, 0);
    out = &first;
    place(0, 0, 0);
    return found;
}
