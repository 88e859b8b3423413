// queens-boards, compile error: a missing semicolon, the most common CE there is.
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1
    printf("%d\n", n);
    return 0;
}
