// wrong answer: sums in an int, and is off by one besides.
#include <iostream>
int main() {
    int n, s = 0, x;
    std::cin >> n;
    for (int i = 0; i < n; i++) {
        std::cin >> x;
        s += x;
    }
    std::cout << s + 1 << '\n';
}
