/* Reads a number of milliseconds, spins until this process has used that much CPU time,
 * and prints the number: an honest program that needs a known share of its time limit. */
#include <stdio.h>
#include <time.h>

int main(void) {
    long ms;
    if (scanf("%ld", &ms) != 1) return 1;
    struct timespec t;
    volatile unsigned long sink = 0;
    for (;;) {
        for (int i = 0; i < 100000; i++) sink += i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        if (t.tv_sec * 1000L + t.tv_nsec / 1000000L >= ms) break;
    }
    printf("%ld\n", ms);
    return 0;
}
