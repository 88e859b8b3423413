// accepted: into a vector, then std::accumulate.
#include <cstdio>
#include <numeric>
#include <vector>
int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<long long> v(n);
    for (auto &x : v) std::scanf("%lld", &x);
    std::printf("%lld\n", std::accumulate(v.begin(), v.end(), 0LL));
}
