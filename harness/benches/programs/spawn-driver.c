// The stress bench's ceiling: a driver that only starts the programs, as fast as this machine
// starts them, and checks nothing. JOBS workers (processes), worker k on seeds FIRST + k,
// FIRST + k + JOBS, ...; per seed: the generator writes the input, then the brute force and
// the submission run side by side (posix_spawn, which glibc does with CLONE_VM | CLONE_VFORK),
// their outputs to files in FOLDER. Prints the number of inputs done in SECONDS, all workers
// together. No tool that starts the same three processes per input and judges them can go
// faster.
//
// usage: spawn-driver GEN BRUTE SOL JOBS SECONDS FIRST FOLDER
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static pid_t start(char *const argv[], const char *in, const char *out) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (in) posix_spawn_file_actions_addopen(&actions, 0, in, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int error = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error) {
        fprintf(stderr, "spawn-driver: cannot start %s\n", argv[0]);
        exit(1);
    }
    return pid;
}

static void wait_ok(pid_t pid) {
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "spawn-driver: a program failed\n");
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: spawn-driver GEN BRUTE SOL JOBS SECONDS FIRST FOLDER\n");
        return 2;
    }
    char *gen = argv[1], *brute = argv[2], *sol = argv[3];
    int jobs = atoi(argv[4]);
    double seconds = atof(argv[5]);
    long first = atol(argv[6]);
    if (chdir(argv[7]) != 0) {
        perror("spawn-driver: chdir");
        return 1;
    }
    int counts[2];
    if (pipe(counts) != 0) return 1;
    double end = now() + seconds;
    for (int worker = 0; worker < jobs; worker++) {
        if (fork() != 0) continue;
        char in[32], ans[32], out[32], seed[32];
        snprintf(in, sizeof in, "w%d.in", worker);
        snprintf(ans, sizeof ans, "w%d.ans", worker);
        snprintf(out, sizeof out, "w%d.out", worker);
        long done = 0;
        for (long s = first + worker; now() < end; s += jobs) {
            snprintf(seed, sizeof seed, "%ld", s);
            char *gen_argv[] = {gen, "king-queens", "random", seed, NULL};
            wait_ok(start(gen_argv, NULL, in));
            char *brute_argv[] = {brute, NULL};
            char *sol_argv[] = {sol, NULL};
            pid_t a = start(brute_argv, in, ans);
            pid_t b = start(sol_argv, in, out);
            wait_ok(a);
            wait_ok(b);
            done++;
        }
        if (write(counts[1], &done, sizeof done) != sizeof done) _exit(1);
        _exit(0);
    }
    close(counts[1]);
    long total = 0;
    for (int worker = 0; worker < jobs; worker++) {
        long done;
        if (read(counts[0], &done, sizeof done) != sizeof done) return 1;
        total += done;
    }
    printf("%ld\n", total);
    return 0;
}
