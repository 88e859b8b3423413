// queens-boards, memory limit exceeded through std::vector: keeps a "seen" flag for every one
// of the n^n column choices, to skip repeats that cannot happen anyway. At n = 9 that is 387
// million bytes, far over the 64 MiB limit; the search itself is right.
#include <cstdio>
#include <vector>

static int n;
static int col_of[9];
static bool col_used[9], diag1[17], diag2[17];
static std::vector<char> seen;

static void place(int r, long long code) {
    if (r == n) {
        if (seen[code]) return;
        seen[code] = 1;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) putchar(c == col_of[i] ? 'Q' : '.');
            putchar('\n');
        }
        putchar('\n');
        return;
    }
    for (int c = 0; c < n; c++) {
        if (col_used[c] || diag1[r + c] || diag2[r - c + n - 1]) continue;
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = true;
        col_of[r] = c;
        place(r + 1, code * n + c);
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = false;
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    long long total = 1;
    for (int i = 0; i < n; i++) total *= n;
    seen.assign(total, 0);
    place(0, 0);
    return 0;
}
