/* find-the-queens, time limit exceeded: the right search, but `printf` without `fflush`.
 * stdout is fully buffered when it is a pipe, so the first question stays in the buffer;
 * the program waits for the answer, the interactor waits for the question, and the wall
 * clock ends both. (A Python `print` without flush=True does the same, unless the judge's
 * environment sets PYTHONUNBUFFERED.) */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n, found[101];
    if (scanf("%d", &n) != 1) return 1;
    for (int row = 0; row < n; row++) {
        int free[101], k = 0;
        for (int c = 1; c <= n; c++) {
            int ok = 1;
            for (int r = 0; r < row; r++)
                if (found[r] == c || abs(found[r] - c) == row - r) ok = 0;
            if (ok) free[k++] = c;
        }
        int lo = 0, hi = k;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            printf("? %d %d\n", row + 1, free[mid]);
            char reply[16];
            if (scanf("%15s", reply) != 1) return 0;
            if (reply[0] == 'h') {
                lo = mid;
                hi = mid + 1;
            } else if (reply[0] == 'l') {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        found[row] = free[lo];
    }
    printf("!");
    for (int row = 0; row < n; row++) printf(" %d", found[row]);
    printf("\n");
    return 0;
}
