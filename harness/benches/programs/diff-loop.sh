#!/usr/bin/env bash
# The loop a contestant writes by hand (online-judge-tools' own help suggests it): run the
# program on each input and diff its output with the answer.
# usage: diff-loop.sh PROGRAM LIST   (LIST: one case path without extension a line)
# Exits 1 when an output differs, so the benchmark knows every case passed.
program=$1
failed=0
while IFS= read -r stem; do
    "$program" < "$stem.in" | diff -q - "$stem.ans" > /dev/null || failed=1
done < "$2"
exit $failed
