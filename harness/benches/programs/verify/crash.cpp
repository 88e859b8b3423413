// run-time error: reads everything, then aborts.
#include <cstdlib>
#include <iostream>
int main() {
    int n;
    std::cin >> n;
    long long s = 0, x;
    for (int i = 0; i < n; i++) {
        std::cin >> x;
        s += x;
    }
    if (n > 0) std::abort();
    std::cout << s << '\n';
}
