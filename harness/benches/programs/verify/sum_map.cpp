// accepted: a std::map for no reason, as a slow but right solution.
#include <iostream>
#include <map>
int main() {
    int n;
    std::cin >> n;
    std::map<int, long long> m;
    for (int i = 0; i < n; i++) std::cin >> m[i];
    long long s = 0;
    for (const auto &[k, v] : m) s += v;
    std::cout << s << std::endl;
}
