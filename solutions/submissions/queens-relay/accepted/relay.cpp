// queens-relay, accepted: process 0 (argv[1] = "0") finds the first placement by
// backtracking; process 1 answers the one column the placement it is shown does not use.
#include <cstdio>
#include <cstdlib>
#include <vector>

static int n;
static std::vector<int> columns;

static bool extend(int row) {
    if (row == n) return true;
    for (int c = 1; c <= n; c++) {
        bool free = true;
        for (int r = 0; r < row; r++)
            if (columns[r] == c || std::abs(columns[r] - c) == row - r) free = false;
        if (!free) continue;
        columns[row] = c;
        if (extend(row + 1)) return true;
    }
    return false;
}

int main(int argc, char** argv) {
    if (argc < 2 || std::scanf("%d", &n) != 1) return 1;
    if (argv[1][0] == '0') {
        columns.assign(n, 0);
        extend(0);
        for (int i = 0; i < n; i++) std::printf("%d%c", columns[i], i + 1 < n ? ' ' : '\n');
    } else {
        std::vector<bool> used(n + 1, false);
        for (int i = 0, c; i < n && std::scanf("%d", &c) == 1; i++) used[c] = true;
        for (int c = 1; c <= n; c++)
            if (!used[c]) {
                std::printf("%d\n", c);
                break;
            }
    }
    std::fflush(stdout);
    return 0;
}
