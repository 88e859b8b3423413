/* A Kattis-protocol guess-the-number interactor (`INPUT ANSWER FEEDBACK_DIR`, the secret is
 * the input; exit 42 or 43) that computes for 300 ms of CPU before it plays: on a loaded
 * machine the submission waits seconds of wall time for it. */
#include <stdio.h>
#include <string.h>
#include <time.h>

static int verdict(const char *feedback, int code, const char *message) {
    char path[4096];
    snprintf(path, sizeof path, "%sjudgemessage.txt", feedback);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", message);
        fclose(f);
    }
    return code;
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    FILE *input = fopen(argv[1], "r");
    int secret;
    if (!input || fscanf(input, "%d", &secret) != 1) return 1;
    volatile unsigned long sink = 0;
    while (clock() < CLOCKS_PER_SEC * 3 / 10) sink++;
    for (int number = 1; number <= 10; number++) {
        int guess;
        if (scanf("%d", &guess) != 1) return verdict(argv[3], 43, "no guess");
        if (guess == secret) {
            printf("correct\n");
            fflush(stdout);
            return verdict(argv[3], 42, "found it");
        }
        printf(guess < secret ? "higher\n" : "lower\n");
        fflush(stdout);
    }
    return verdict(argv[3], 43, "no correct guess in 10 guesses");
}
