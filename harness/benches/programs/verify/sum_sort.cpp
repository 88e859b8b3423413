// accepted: sorts first, then std::reduce.
#include <algorithm>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>
int main() {
    int n;
    std::cin >> n;
    std::vector<long long> v(n);
    for (auto &x : v) std::cin >> x;
    std::sort(v.begin(), v.end());
    std::cout << std::to_string(std::reduce(v.begin(), v.end(), 0LL)) << "\n";
}
