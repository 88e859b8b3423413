// The grader of `@ID@`, a stub written by `harness new --grader`: it has `main`, reads a
// case's input, calls the contestant's function and prints its answer. judge.toml's `grader`
// compiles it with every C++ submission (`harness export` writes it as include/cpp/), so a
// submission defines `sum` and no `main`.
#include <iostream>

#include "@ID@.h"

int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << sum(a, b) << '\n';
    return 0;
}
