// queens-boards, run-time error: sizes its column list n - 1 (an off-by-one) and reads it
// with .at(), which throws std::out_of_range on the last row: abort, SIGABRT.
#include <cstdio>
#include <vector>

static int n;
static std::vector<int> col_of;
static bool col_used[9], diag1[17], diag2[17];

static void place(int r) {
    if (r == n) {
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) putchar(c == col_of.at(i) ? 'Q' : '.');
            putchar('\n');
        }
        putchar('\n');
        return;
    }
    for (int c = 0; c < n; c++) {
        if (col_used[c] || diag1[r + c] || diag2[r - c + n - 1]) continue;
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = true;
        col_of.at(r) = c;
        place(r + 1);
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = false;
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    col_of.assign(n - 1, 0);
    place(0);
    return 0;
}
