/* Plays guess-the-number over 1..100 by binary search, flushing each guess: an interactive
 * submission that uses next to no CPU and spends its time waiting for the interactor. */
#include <stdio.h>
#include <string.h>

int main(void) {
    int lo = 1, hi = 100;
    char reply[16];
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        printf("%d\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 0;
        if (strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "higher") == 0) lo = mid + 1; else hi = mid - 1;
    }
    return 0;
}
