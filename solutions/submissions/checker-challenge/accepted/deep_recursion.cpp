// checker-challenge, accepted: right, but it first walks a chain of a million nodes with a
// recursive DFS, as contest code on trees does on a path-shaped tree. That is a million stack
// frames, far past the usual 8 MiB stack; judges raise the stack limit to the memory limit
// (128 MiB here), so this must be AC, not RE.
#include <cstdio>
#include <vector>

static std::vector<int> next_node, order;

// The push after the call keeps the recursion from becoming a loop.
static void dfs(int v) {
    if (next_node[v] >= 0) dfs(next_node[v]);
    order.push_back(v);
}

static int n, full, found;
static int col_of[13];

static void place(int r, int cols, int left, int right) {
    if (r == n) {
        if (++found <= 3)
            for (int i = 0; i < n; i++) printf("%d%c", col_of[i] + 1, i + 1 < n ? ' ' : '\n');
        return;
    }
    int free = full & ~(cols | left | right);
    while (free) {
        int bit = free & -free;
        free ^= bit;
        col_of[r] = __builtin_ctz(bit);
        place(r + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
}

int main() {
    const int nodes = 1000000;
    next_node.resize(nodes);
    for (int v = 0; v < nodes; v++) next_node[v] = v + 1 < nodes ? v + 1 : -1;
    order.reserve(nodes);
    dfs(0);
    if ((int)order.size() != nodes || order.front() != nodes - 1) return 1;

    if (scanf("%d", &n) != 1) return 1;
    full = (1 << n) - 1;
    place(0, 0, 0, 0);
    printf("%d\n", found);
    return 0;
}
