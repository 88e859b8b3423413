//! The protocol client against the real `harness serve`: the binary named by $HARNESS, run on
//! the fixtures of the project folder $HARNESS_PROJECT (harness/tests/editor_vscode.rs lays
//! them out with the tests' shared builder and runs this suite). Without them each test
//! skips and says why.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { Client, ClosedError, RpcError } from "../src/client";
import { ErrorCode, HarnessEvent } from "../src/protocol";
import { caseLine, diagnosticsByFile, failureLines, statusText } from "../src/report";
import { TaskState } from "../src/tasks";

const HARNESS = process.env.HARNESS;
const PROJECT = process.env.HARNESS_PROJECT;
const SKIP = HARNESS && PROJECT ? false : "no $HARNESS and $HARNESS_PROJECT: run through `cargo test -p harness --test editor_vscode`";
/** Far longer than any case here takes: a loaded machine is slow, not wrong. */
const PATIENCE_MS = 120_000;

const at = (relative: string) => path.join(PROJECT!, relative);

function stdio(): Client {
  const client = Client.spawn({ harness: HARNESS!, cwd: PROJECT, onStderr: (line) => process.stderr.write(`[server] ${line}\n`) });
  return client;
}

/** Resolves with the state of `task` once `wanted` holds of it (now, or after an event). */
function until(client: Client, task: number, wanted: (state: TaskState) => boolean): Promise<TaskState> {
  const now = client.tasks.get(task);
  if (now !== undefined && wanted(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`task ${task}: not so within ${PATIENCE_MS} ms`)), PATIENCE_MS);
    const onTask = (state: TaskState) => {
      if (state.task === task && wanted(state)) {
        clearTimeout(timer);
        client.off("task", onTask);
        resolve(state);
      }
    };
    client.on("task", onTask);
  });
}

function withPatience<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${PATIENCE_MS} ms`)), PATIENCE_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function ended(client: Client, task: number): Promise<TaskState> {
  return withPatience(client.finished(task), `task ${task}`);
}

function closed(client: Client): Promise<string> {
  return client.closedBecause !== undefined ? Promise.resolve(client.closedBecause) : new Promise((resolve) => client.once("close", resolve));
}

test("stdio: a source is judged and its cases come in order, with the failing one's input, expected and received", { skip: SKIP }, async () => {
  const client = stdio();
  const hello = await client.initialize();
  assert.equal(hello.protocol, "harness-serve");
  assert.equal(hello.version, 1);
  for (const method of ["judge", "stress", "cancel", "events", "problems", "cases.add", "shutdown"]) {
    assert.ok(hello.capabilities.methods.includes(method), method);
  }
  const seen: HarnessEvent[] = [];
  client.on("event", (event: HarnessEvent) => seen.push(event));
  const task = await client.judge({ source: at("practice/a.py") });
  assert.equal(task.mine, true);
  const state = await ended(client, task.task);

  assert.deepEqual(state.started?.cases, ["1", "2", "3"]);
  assert.deepEqual(state.cases.map((c) => [c.case, c.verdict]), [["1", "AC"], ["2", "AC"], ["3", "WA"]]);
  assert.equal(state.finished?.verdict, "WA");
  assert.equal(state.finished?.first_failure, "3");
  assert.equal(statusText(state), "WA on 3 (2/3)");
  const kinds = seen.map((e) => e.kind);
  assert.equal(kinds[0], "task.started");
  assert.equal(kinds.at(-1), "task.finished");
  assert.ok(seen.every((e, i) => i === 0 || e.seq > seen[i - 1].seq), "seq strictly increases");

  const wrong = state.cases[2];
  assert.match(caseLine(wrong, state.started?.limits), /^ {2}3 +WA +\d+ \/ \d+ ms/);
  const shown = failureLines(wrong).join("\n");
  assert.match(shown, /input:\n {6}2 2/);
  assert.match(shown, /5/);
  assert.match(shown, /4/);
  assert.deepEqual(failureLines(state.cases[0]), []);

  client.close();
  assert.match(await closed(client), /exited \(exit code 0\)/);
});

test("a compile error's diagnostics belong to the source, at the line the compiler named", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const source = at("practice/bad.cpp");
  const task = await client.judge({ source });
  const state = await ended(client, task.task);
  assert.equal(state.compile?.ok, false);
  assert.equal(state.finished?.verdict, "CE");
  assert.equal(statusText(state), "CE");
  assert.equal(state.cases.length, 0);
  const byFile = diagnosticsByFile(state.compile!.diagnostics, source);
  assert.deepEqual([...byFile.keys()], [source]);
  const first = byFile.get(source)![0];
  assert.equal(first.line, 3);
  assert.equal(first.severity, "error");
  assert.ok(first.column > 0);
  assert.match(first.text, /y/);
  client.close();
});

test("problems lists judge.toml's problems, and judging one uses its cases and limits", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const listed = await client.problems({ folder: at("contest") });
  assert.deepEqual(listed.problems.map((p) => [p.id, p.cases, p.time_limit_ms]), [["sum", 2, 3000]]);
  const task = await client.judge({ source: at("contest/sum.py"), problem: "sum", config: listed.config ?? undefined });
  const state = await ended(client, task.task);
  // The problem's 3 s, with the language's multiplier: as a 3 s asked for by hand gets it.
  const byHand = await ended(client, (await client.judge({ source: at("practice/a.py"), time_limit: "3s" })).task);
  assert.equal(state.started?.limits.time_ms, byHand.started?.limits.time_ms);
  const byDefault = await ended(client, (await client.judge({ source: at("practice/a.py") })).task);
  assert.notEqual(state.started?.limits.time_ms, byDefault.started?.limits.time_ms);
  assert.deepEqual(state.cases.map((c) => [c.case, c.verdict]), [["01", "AC"], ["02", "AC"]]);
  assert.equal(statusText(state), "AC (2/2)");

  // No judge.toml up from the folder: the server's error, which the extension reads as
  // "judge on the cases beside the source".
  await assert.rejects(client.problems({ folder: at("practice") }), (error: RpcError) => error.code === ErrorCode.FAILED);
  client.close();
});

test("bad requests are typed errors naming the field, and a server that dies rejects what waits", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  await assert.rejects(client.request("judge", { source: 5 }), (error: RpcError) => error.code === ErrorCode.INVALID_PARAMS && error.field === "source");
  await assert.rejects(client.request("judge.now", {}), (error: RpcError) => error.code === ErrorCode.METHOD_NOT_FOUND);
  await assert.rejects(client.cancel(999), (error: RpcError) => error.code === ErrorCode.UNKNOWN_TASK);
  // The server still serves after all of that.
  assert.equal((await client.request<{ tasks: unknown[] }>("tasks")).tasks.length, 0);

  const sleeper = await client.judge({ source: at("practice/sleep.py") });
  await until(client, sleeper.task, (state) => state.compile !== undefined);
  const waiting = client.finished(sleeper.task);
  client.child!.kill("SIGKILL");
  await assert.rejects(waiting, ClosedError);
  assert.match(await closed(client), /SIGKILL/);
  await assert.rejects(client.request("tasks"), ClosedError);
});

test("cancel ends a sleeping task, cancelled and without a verdict", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const task = await client.judge({ source: at("practice/sleep.py") });
  await until(client, task.task, (state) => state.compile !== undefined);
  assert.equal(await client.cancel(task.task), true);
  const state = await ended(client, task.task);
  assert.equal(state.finished?.cancelled, true);
  assert.equal(state.finished?.verdict, null);
  assert.equal(statusText(state), "cancelled");
  assert.equal(await client.cancel(task.task), false);
  client.close();
});

test("stress finds the planted bug and shrinks its input", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const task = await client.stress({ source: at("practice/wrong.py"), generator: at("practice/gen.py"), reference: at("practice/brute.py"), seed: 1 });
  const state = await ended(client, task.task);
  assert.equal(state.started?.command, "stress");
  assert.ok(state.progress !== undefined, "stress.progress was told");
  assert.equal(state.finished?.verdict, "WA");
  assert.equal(statusText(state), "stress: WA");
  const report = state.finished?.stress as { input?: string; found?: boolean };
  assert.equal(report.found, true);
  assert.equal(report.input, "1\n51\n");
  client.close();
});

test("watch: a save judges again, and the state is the new run's", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const source = at("watched/a.py");
  const task = await client.judge({ source, watch: true });
  const first = await until(client, task.task, (state) => state.finished !== undefined);
  assert.equal(first.finished?.done, false);
  assert.equal(first.finished?.verdict, "AC");
  assert.equal(statusText(first), "AC (1/1)");
  fs.writeFileSync(source, "print(0)\n");
  const state = await until(client, task.task, (state) => state.run === 2 && state.finished !== undefined);
  assert.equal(state.finished?.verdict, "WA");
  assert.equal(state.cases[0].case, "1");
  assert.equal(await client.cancel(task.task), true);
  assert.equal((await ended(client, task.task)).done, true);
  client.close();
});

test("cases.add writes a stress counterexample as a case and never over one", { skip: SKIP }, async () => {
  const client = stdio();
  await client.initialize();
  const folder = at("practice/added");
  const added = await client.addCase({ folder, input: "1\n51\n", answer: "51\n" });
  assert.equal(added.answer_from, "given");
  assert.equal(fs.readFileSync(added.input, "utf8"), "1\n51\n");
  assert.equal(fs.readFileSync(added.answer, "utf8"), "51\n");
  await assert.rejects(client.addCase({ folder, input: "2\n", answer: "2\n", name: added.name }), (error: RpcError) => error.code === ErrorCode.FAILED);
  assert.equal(fs.readFileSync(added.input, "utf8"), "1\n51\n");
  client.close();
});

test("socket: the first window starts the server, a second shares it, and one that comes back catches up", { skip: SKIP }, async () => {
  const socket = at("harness.sock");
  const options = { harness: HARNESS!, cwd: PROJECT };
  const first = await Client.connectOrStart(socket, options);
  const server = first.startedServer;
  assert.ok(server?.pid, "the first window started the server");
  try {
    await first.initialize();
    assert.equal(fs.statSync(socket).mode & 0o777, 0o600);
    const second = await Client.connectOrStart(socket, options);
    assert.equal(second.startedServer, undefined, "the second window found it");
    await second.initialize();

    // The second window sees the first's task, as not its own.
    const judged = await first.judge({ source: at("practice/a.py") });
    await ended(first, judged.task);
    const seenBySecond = await ended(second, judged.task);
    assert.equal(seenBySecond.mine, false);
    assert.equal(seenBySecond.cases.length, 3);

    // The second goes away; the first judges again; the second comes back and catches up.
    second.close();
    await closed(second);
    const again = await first.judge({ source: at("contest/sum.py"), problem: "sum", config: at("contest/judge.toml") });
    await ended(first, again.task);
    const back = await Client.connect(socket);
    await back.initialize();
    await back.resume(second);
    const caught = back.tasks.get(again.task);
    assert.deepEqual(caught?.cases.map((c) => c.case), ["01", "02"]);
    assert.equal(caught?.finished?.verdict, "AC");
    assert.equal(back.lastSeq, first.lastSeq);

    // A client that missed notifications (as one that reads too slowly does) fetches them
    // when the next one shows the gap: every seq after the one it had, once, in order.
    const late = await Client.connect(socket);
    await late.initialize();
    late.lastSeq = 1;
    const applied: number[] = [];
    late.on("event", (event: HarnessEvent) => applied.push(event.seq));
    const third = await first.judge({ source: at("practice/a.py") });
    await ended(first, third.task);
    await ended(late, third.task);
    assert.deepEqual(applied, Array.from({ length: first.lastSeq - 1 }, (_, i) => i + 2));

    await first.shutdown();
    await closed(first);
    await withPatience(new Promise((resolve) => (server!.exitCode !== null ? resolve(null) : server!.once("exit", resolve))), "the server's exit");
    assert.equal(fs.existsSync(socket), false, "the socket is removed on shutdown");
  } finally {
    if (server!.exitCode === null) server!.kill("SIGKILL");
  }
});
