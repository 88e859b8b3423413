// find-the-queens, accepted, in C++: row by row, a binary search over the columns no queen
// found so far attacks. `endl` flushes each query; reading cin would flush cout anyway.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>
using namespace std;

int main() {
    int n;
    cin >> n;
    vector<int> found;
    for (int row = 0; row < n; row++) {
        vector<int> free;
        for (int c = 1; c <= n; c++) {
            bool ok = true;
            for (int r = 0; r < row; r++)
                if (found[r] == c || abs(found[r] - c) == row - r) ok = false;
            if (ok) free.push_back(c);
        }
        size_t lo = 0, hi = free.size();
        while (hi - lo > 1) {
            size_t mid = (lo + hi) / 2;
            cout << "? " << row + 1 << ' ' << free[mid] << endl;
            string reply;
            cin >> reply;
            if (reply == "here") {
                lo = mid;
                hi = mid + 1;
            } else if (reply == "left") {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        found.push_back(free[lo]);
    }
    cout << "!";
    for (int c : found) cout << ' ' << c;
    cout << endl;
}
