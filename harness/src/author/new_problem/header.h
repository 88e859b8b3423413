// The function a submission of `@ID@` implements, a stub written by `harness new --grader`:
// judge.toml's `grader-files` put it beside every submission (include/default/ in an export).
#pragma once

long long sum(long long a, long long b);
