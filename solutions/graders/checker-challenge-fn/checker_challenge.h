// checker-challenge-fn: the function the contestant writes, called once by the grader.
#pragma once
#include <vector>

// The number of ways to place n checkers on an n x n board, one in each row and column and
// at most one on each diagonal; `first` is filled with the first three placements in
// lexicographic order, each the 1-based columns used in rows 1..n.
long long placements(int n, std::vector<std::vector<int>>& first);
