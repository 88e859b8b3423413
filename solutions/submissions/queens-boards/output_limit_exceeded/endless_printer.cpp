// queens-boards, output limit exceeded: the loop that prints the found boards never advances
// its index (`i` instead of `++i`), so it prints the first board until it is killed.
#include <cstdio>
#include <string>
#include <vector>

static int n;
static int col_of[9];
static bool col_used[9], diag1[17], diag2[17];
static std::vector<std::string> boards;

static void place(int r) {
    if (r == n) {
        std::string board;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < n; c++) board += c == col_of[i] ? 'Q' : '.';
            board += '\n';
        }
        boards.push_back(board + "\n");
        return;
    }
    for (int c = 0; c < n; c++) {
        if (col_used[c] || diag1[r + c] || diag2[r - c + n - 1]) continue;
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = true;
        col_of[r] = c;
        place(r + 1);
        col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = false;
    }
}

int main() {
    if (scanf("%d", &n) != 1) return 1;
    place(0);
    for (size_t i = 0; i < boards.size(); i) fputs(boards[i].c_str(), stdout);
    return 0;
}
