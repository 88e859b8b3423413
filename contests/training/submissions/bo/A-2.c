/* queens-boards, accepted, in C: the other classic search, square by square (queen or no
   queen on each), which finds the boards in another order than the row-by-row search: the
   checker must accept any order. */
#include <stdio.h>

static int n, placed;
static char board[9][10];
static int row_used[9], col_used[9], diag1[17], diag2[17];

static void visit(int square) {
    if (placed == n) {
        for (int r = 0; r < n; r++) puts(board[r]);
        putchar('\n');
        return;
    }
    if (square == n * n) return;
    int r = square / n, c = square % n;
    /* No queen here first, so the boards come out in another order than row by row. */
    visit(square + 1);
    if (!row_used[r] && !col_used[c] && !diag1[r + c] && !diag2[r - c + n - 1]) {
        row_used[r] = col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = 1;
        board[r][c] = 'Q';
        placed++;
        visit(square + 1);
        placed--;
        board[r][c] = '.';
        row_used[r] = col_used[c] = diag1[r + c] = diag2[r - c + n - 1] = 0;
    }
}

int main(void) {
    if (scanf("%d", &n) != 1) return 1;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) board[r][c] = '.';
        board[r][n] = '\0';
    }
    visit(0);
    return 0;
}
