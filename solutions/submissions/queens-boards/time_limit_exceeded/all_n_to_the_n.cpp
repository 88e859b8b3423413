// queens-boards, too slow: tries all n^n column choices and checks each afterwards, as the
// statement warns. Right for small n (it is a good cross-check), but 9^9 = 387 million
// choices at n = 9 take far more than a second.
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
        bool ok = true;
        for (int a = 0; a < n && ok; a++)
            for (int b = a + 1; b < n && ok; b++)
                if (col[a] == col[b] || abs(col[a] - col[b]) == b - a) ok = false;
        if (!ok) continue;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) putchar(c == col[r] ? 'Q' : '.');
            putchar('\n');
        }
        putchar('\n');
    }
    return 0;
}
