// find-the-queens, wrong answer: a binary search over all n columns in every row, forgetting
// that a column or diagonal already taken cannot hold the queen. Correct, but it asks about
// n log n questions, more than the budget on large boards: the interactor stops it.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int found[101];
    for (int row = 1; row <= n; row++) {
        int lo = 1, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            printf("? %d %d\n", row, mid);
            fflush(stdout);
            char reply[16];
            if (scanf("%15s", reply) != 1) return 0;
            if (reply[0] == 'h') {
                lo = hi = mid;
            } else if (reply[0] == 'l') {
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        found[row] = lo;
    }
    printf("!");
    for (int row = 1; row <= n; row++) printf(" %d", found[row]);
    printf("\n");
}
