#!/usr/bin/env bash
# The loop a contestant writes by hand: run the program on each input and diff its output with
# the answer. Two forms:
#   diff-loop.sh PROGRAM LIST          run, then diff the output file (one process at a time)
#   diff-loop.sh --pipe PROGRAM LIST   program | diff - (online-judge-tools' help suggests it;
#                                      diff runs beside the program, on another core if free)
# LIST has one case path without extension a line. Exits 1 when an output differs, so the
# benchmark knows every case passed.
pipe=0
if [ "$1" = --pipe ]; then
    pipe=1
    shift
fi
program=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0
while IFS= read -r stem; do
    if [ $pipe = 1 ]; then
        "$program" < "$stem.in" | diff -q - "$stem.ans" > /dev/null || failed=1
    else
        "$program" < "$stem.in" > "$out"
        diff -q "$out" "$stem.ans" > /dev/null || failed=1
    fi
done < "$2"
exit $failed
