// king-queens, time limit exceeded while using no CPU: it sleeps (as a program blocked on
// input it will never get would). Only the wall-clock limit catches it.
#include <chrono>
#include <cstdio>
#include <thread>

int main() {
    int n, x, y;
    if (scanf("%d %d %d", &n, &x, &y) != 3) return 1;
    std::this_thread::sleep_for(std::chrono::seconds(30));
    printf("0\n");
    return 0;
}
