//! The live page's feed (panel.ts) and `page` against the real `harness serve` ($HARNESS on
//! the fixtures of $HARNESS_PROJECT, as server.test.ts): what a panel is handed is every
//! event once, in `seq` order, caught up first; and a problem Competitive Companion posts to
//! a receiving server reaches the client as `received`. Without them each test skips.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import { test } from "node:test";

import { Client, RpcError } from "../src/client";
import { PageMessage, PanelFeed } from "../src/panel";
import { ErrorCode, ProblemReceived, ServerEvent } from "../src/protocol";

const HARNESS = process.env.HARNESS;
const PROJECT = process.env.HARNESS_PROJECT;
const SKIP = HARNESS && PROJECT ? false : "no $HARNESS and $HARNESS_PROJECT: run through `cargo test -p harness --test editor_vscode`";
const PATIENCE_MS = 120_000;

const at = (relative: string) => path.join(PROJECT!, relative);

function withPatience<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${PATIENCE_MS} ms`)), PATIENCE_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The events of the messages, in the order handed over, and the status lines apart. */
function handed(messages: PageMessage[]): { events: ServerEvent[]; statuses: string[] } {
  const events: ServerEvent[] = [];
  const statuses: string[] = [];
  for (const message of messages) {
    if (Array.isArray(message)) events.push(...message);
    else statuses.push(message.status);
  }
  return { events, statuses };
}

test("page: the live page for a panel, locked to the nonce given; a nonce that could break out is refused", { skip: SKIP }, async () => {
  const client = Client.spawn({ harness: HARNESS!, cwd: PROJECT });
  await client.initialize();
  assert.ok(client.server?.capabilities.methods.includes("page"));
  const nonce = "bm9uY2Utb2YtdGhlLXRlc3Q=";
  const { html } = await client.page(nonce);
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(html.includes('<body data-feed="message">'), html.slice(0, 400));
  assert.ok(html.includes(`script-src 'nonce-${nonce}'`));
  assert.ok(html.includes(`<script nonce="${nonce}">`));
  assert.ok(html.includes('id="tasks"'));
  for (const bad of ['"><script>alert(1)</script>', "short"]) {
    await assert.rejects(client.page(bad), (error: unknown) => error instanceof RpcError && error.code === ErrorCode.INVALID_PARAMS && error.field === "nonce");
  }
  client.close();
});

test("the panel's feed: caught up from the start when the page listens, then every live event once and in order", { skip: SKIP }, async () => {
  const client = Client.spawn({ harness: HARNESS!, cwd: PROJECT });
  await client.initialize();
  const first = await client.judge({ source: at("practice/a.py"), all: true });
  await withPatience(client.finished(first.task), "the first task");

  const messages: PageMessage[] = [];
  const feed = new PanelFeed((message) => messages.push(message));
  feed.attach(client);
  // A page that has not said it listens is handed nothing: it would drop what came early.
  const early = await client.judge({ source: at("practice/a.py"), all: true });
  await withPatience(client.finished(early.task), "the task before the page listened");
  assert.equal(messages.length, 0);

  await feed.ready();
  const caught = handed(messages).events;
  assert.equal(caught[0].seq, 1, "the catch-up starts at the first event kept");
  assert.ok(caught.some((e) => e.task === first.task && e.kind === "task.finished"));
  assert.ok(caught.some((e) => e.task === early.task && e.kind === "task.finished"));

  // A task judged while the page listens, and a reload in the middle of it: the page drawn
  // afresh from the start, and then live again.
  const live = await client.judge({ source: at("practice/a.py"), all: true });
  const reloadedAt = messages.length;
  await feed.ready();
  await withPatience(client.finished(live.task), "the live task");
  // The last events may still be on their way through the client's own catch-up.
  await new Promise((resolve) => setTimeout(resolve, 200));

  const afterReload = handed(messages.slice(reloadedAt)).events;
  const seqs = afterReload.map((e) => e.seq);
  assert.equal(seqs[0], 1, "a reloaded page is caught up from the start");
  for (let i = 1; i < seqs.length; i++) assert.equal(seqs[i], seqs[i - 1] + 1, `no event skipped or told twice: ${seqs.join(" ")}`);
  const kinds = afterReload.filter((e) => e.task === live.task).map((e) => e.kind);
  assert.deepEqual(kinds, ["task.started", "compile.finished", "case.finished", "case.finished", "case.finished", "task.finished"]);
  assert.equal(seqs.at(-1), client.lastSeq);

  client.close();
  await withPatience(new Promise((resolve) => client.once("close", resolve)), "the server's end");
  assert.match(handed(messages).statuses.at(-1) ?? "", /^disconnected: /);
});

/** A port nothing listens on now, for the server to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}

/** Competitive Companion's POST, tried until the receiver listens. */
async function postProblem(port: number): Promise<void> {
  const body = JSON.stringify({
    name: "A. Cover in Water",
    group: "Codeforces - Round 911",
    url: "https://codeforces.com/contest/1900/problem/A",
    memoryLimit: 256,
    timeLimit: 1000,
    tests: [{ input: "1\n3\n...\n", output: "2\n" }],
    testType: "single",
    input: { type: "stdin" },
    output: { type: "stdout" },
  });
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const status = await new Promise<number | string>((resolve) => {
      const request = http.request(
        { host: "127.0.0.1", port, method: "POST", path: "/", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
        (answer) => {
          answer.resume();
          answer.on("end", () => resolve(answer.statusCode ?? 0));
        },
      );
      request.on("error", (error) => resolve(error.message));
      request.end(body);
    });
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the receiver on ${port} did not take the problem: ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("receive: a problem Competitive Companion posts reaches the client as `received`, of no task", { skip: SKIP }, async () => {
  const workspace = fs.mkdtempSync(path.join(PROJECT!, "received-"));
  const port = await freePort();
  const client = Client.spawn({ harness: HARNESS!, cwd: PROJECT, args: ["--receive", String(port), "--dir", workspace] });
  const hello = await client.initialize();
  assert.equal(hello.capabilities.problem_received, true);
  const received = new Promise<ProblemReceived>((resolve) => client.once("received", resolve));
  await postProblem(port);
  const event = await withPatience(received, "problem.received");
  assert.equal(event.problem, "cf1900a");
  assert.equal(event.task, null);
  assert.equal(event.samples, 1);
  assert.equal(fs.realpathSync(event.folder), fs.realpathSync(workspace));
  assert.ok(fs.existsSync(path.join(event.cases, "sample-1.in")));
  // No task state is made for an event of no task.
  assert.equal([...client.tasks.keys()].filter((task) => typeof task !== "number").length, 0);
  client.close();
});
