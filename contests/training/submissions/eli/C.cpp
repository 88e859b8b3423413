// king-queens, time limit exceeded while using no CPU: it sleeps (as a program blocked on
// input it will never get would). Only the wall-clock limit catches it.
//
// After 10 s of sleep (well past the harness's 3 s wall-clock limit) it spins: a judge with
// no wall-clock limit, such as problemtools' verifyproblem (CPU time only), then sees a
// time limit exceeded too, instead of waiting the sleep out and judging what it prints.
#include <chrono>
#include <cstdio>
#include <thread>

int main() {
    int n, x, y;
    if (scanf("%d %d %d", &n, &x, &y) != 3) return 1;
    std::this_thread::sleep_for(std::chrono::seconds(10));
    for (volatile unsigned long spin = 0;; spin = spin + 1) {
    }
}
