// queens-boards, accepted: the textbook row-by-row search with three boolean arrays (column,
// and the two diagonals r+c and r-c+n-1), printing each board as it is found.
#include <cstdio>
#include <string>

static int n;
static int col_of[9];
static bool col_used[9], diag1[17], diag2[17];
static std::string out;

static void place(int r) {
    if (r == n) {
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) out += c == col_of[i] ? 'Q' : '.';
            out += '\n';
        }
        out += '\n';
        return;
    }
    for (int c = 0; c < n; c++) {
        if (col_used[c] || diag1[r + c] || diag2[r - c + n - 1]) continue;
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = true;
        col_of[r] = c;
        place(r + 1);
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = false;
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    place(0);
    fputs(out.c_str(), stdout);
    return 0;
}
