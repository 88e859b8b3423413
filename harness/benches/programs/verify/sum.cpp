// accepted: reads n numbers and prints their sum.
#include <iostream>
int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    long long n, s = 0, x;
    std::cin >> n;
    for (long long i = 0; i < n; i++) {
        std::cin >> x;
        s += x;
    }
    std::cout << s << '\n';
}
