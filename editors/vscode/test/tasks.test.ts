//! A task's state from hand-made events (the real server's come in server.test.ts): a watched
//! task's new run starts afresh, a late event of an older run is ignored, and the status
//! bar's words for each way a task ends.

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { HarnessEvent } from "../src/protocol";
import { statusText } from "../src/report";
import { TaskState } from "../src/tasks";

const LIMITS = { time_ms: 1000, wall_ms: 3000, memory_kib: 262144, output_kib: 65536 };
let seq = 0;

function started(run: number, cases: string[]): HarnessEvent {
  return { seq: ++seq, task: 1, run, kind: "task.started", command: "judge", problem: "sum", source: "/p/a.py", language: "py", limits: LIMITS, cases, jobs: 1, sanitized: null };
}

function finishedCase(run: number, name: string, verdict: string): HarnessEvent {
  return { seq: ++seq, task: 1, run, kind: "case.finished", case: name, verdict, time_ms: 10, wall_ms: 12, memory_kib: 9000 };
}

function finished(run: number, fields: object): HarnessEvent {
  return { seq: ++seq, task: 1, run, kind: "task.finished", done: false, verdict: null, ...fields } as HarnessEvent;
}

test("a watched task's next run starts afresh and a late event of the last run is ignored", () => {
  const state = new TaskState(1);
  for (const event of [started(1, ["1", "2"]), finishedCase(1, "1", "AC"), finishedCase(1, "2", "WA"), finished(1, { verdict: "WA", first_failure: "2", cases_planned: 2 })]) {
    state.apply(event);
  }
  assert.equal(statusText(state), "WA on 2 (1/2)");
  assert.equal(state.done, false);
  state.apply(started(2, ["1", "2"]));
  assert.equal(state.run, 2);
  assert.equal(state.cases.length, 0);
  assert.equal(state.finished, undefined);
  assert.equal(statusText(state), "0/2");
  state.apply(finishedCase(1, "late", "AC"));
  state.apply(finishedCase(2, "1", "AC"));
  assert.deepEqual(state.cases.map((c) => c.case), ["1"]);
  assert.equal(statusText(state), "1/2");
});

test("the status bar's words for AC, CE, a score, a cancel and an error", () => {
  const ended = (fields: object, cases: HarnessEvent[] = []) => {
    const state = new TaskState(1);
    state.apply(started(1, ["1", "2"]));
    for (const c of cases) state.apply(c);
    state.apply(finished(1, { done: true, ...fields }));
    return statusText(state);
  };
  assert.equal(ended({ verdict: "AC", cases_planned: 2 }, [finishedCase(1, "1", "AC"), finishedCase(1, "2", "AC")]), "AC (2/2)");
  assert.equal(ended({ verdict: "CE", cases_planned: 2 }), "CE");
  assert.equal(ended({ verdict: "WA", first_failure: "2", cases_planned: 2, score: 30, max_score: 100 }, [finishedCase(1, "1", "AC"), finishedCase(1, "2", "WA")]), "WA on 2 (1/2) 30/100");
  assert.equal(ended({ cancelled: true }), "cancelled");
  assert.equal(ended({ error: "no cases" }), "error");
});
