// queens-boards, too slow: tries all n^n column choices and checks every pair of queens of
// each afterwards, as the statement warns. Right for small n (it is a good cross-check), but
// 9^9 = 387 million choices × 36 pairs at n = 9 take several seconds: checking a choice only
// up to its first clash ran 1.05-1.13 s, too close to the 1 s limit to be a safe TLE.
#include <cstdio>
#include <cstdlib>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int col[9] = {0};
    long long total = 1;
    for (int i = 0; i < n; i++) total *= n;
    for (long long code = 0; code < total; code++) {
        long long rest = code;
        for (int r = 0; r < n; r++) {
            col[r] = rest % n;
            rest /= n;
        }
        int clashes = 0;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                clashes += (col[a] == col[b]) | (abs(col[a] - col[b]) == b - a);
        if (clashes > 0) continue;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) putchar(c == col[r] ? 'Q' : '.');
            putchar('\n');
        }
        putchar('\n');
    }
    return 0;
}
