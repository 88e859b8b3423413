// checker-challenge-fn's grader: reads n, calls the contestant's `placements`, and prints what
// checker-challenge's own programs print, so the problem shares its cases.
#include <cstdio>
#include <vector>

#include "checker_challenge.h"

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<std::vector<int>> first;
    long long count = placements(n, first);
    // More than three, or a row of the wrong length, is printed as it is: the checker says WA.
    for (const std::vector<int>& row : first) {
        for (std::size_t i = 0; i < row.size(); i++)
            std::printf("%d%c", row[i], i + 1 < row.size() ? ' ' : '\n');
    }
    std::printf("%lld\n", count);
    return 0;
}
