//! The client of `harness serve`, with no editor in it: it starts a server on stdio or
//! connects to a shared socket (starting the server there when none answers), frames and
//! matches requests and answers, numbers nothing itself but follows the server's `seq`,
//! catches up with `events` when a number was skipped or after a reconnect, and keeps each
//! task's state. The VS Code glue (extension.ts) is one user of it; the tests are another.

import { ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import * as net from "node:net";

import { LineSplitter } from "./lines";
import {
  CasesAddParams,
  CasesAddResult,
  ErrorCode,
  EventsResult,
  InitializeResult,
  JudgeParams,
  PageResult,
  PROTOCOL,
  ProblemReceived,
  ProblemsResult,
  ServerEvent,
  StressParams,
} from "./protocol";
import { TaskState } from "./tasks";

/**
 * The longest line read from the server. The server bounds what it reads (`max_line`), not
 * what it writes; its events carry excerpts cut to a readable length, so a line past this is
 * a broken server, reported and skipped.
 */
const MAX_INCOMING_LINE = 64 * 1024 * 1024;

/** How long `connectOrStart` waits for a server it started to listen. */
const START_PATIENCE_MS = 30_000;

/** An error answer of the server: its code, message and `data` (`data.field` for -32602). */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
    this.name = "RpcError";
  }

  /** The parameter a -32602 names. */
  get field(): string | undefined {
    const data = this.data as { field?: unknown } | undefined;
    return typeof data?.field === "string" ? data.field : undefined;
  }
}

/** The connection is gone (the server exited, the socket closed) before an answer came. */
export class ClosedError extends Error {
  constructor(
    readonly method: string,
    why: string,
  ) {
    super(`${method}: no answer, ${why}`);
    this.name = "ClosedError";
  }
}

/** Where the bytes go and come from: a child's pipes or a socket. */
interface Wire {
  write(bytes: string): void;
  end(): void;
  onData(listener: (chunk: Buffer) => void): void;
  onClose(listener: (why: string) => void): void;
}

export interface SpawnOptions {
  /** The harness binary. */
  harness: string;
  /** Arguments after `serve` (e.g. `--config FILE`). */
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each line the server writes on stderr (its logs). */
  onStderr?: (line: string) => void;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * Events of a `Client` (an EventEmitter):
 * - `event` (event, state): every event, in `seq` order, once each (the state is undefined
 *   for an event of no task);
 * - `task` (state, event): the task's state after the event;
 * - `received` (event): a problem Competitive Companion sent (`problem.received`);
 * - `lost` (since): events after `since` were no longer kept by the server;
 * - `warning` (text): a line the client could not read;
 * - `close` (why): the connection is gone.
 */
export class Client extends EventEmitter {
  /** The tasks seen, by number (those of other clients of a shared socket too). */
  readonly tasks = new Map<number, TaskState>();
  /** The last `seq` applied. */
  lastSeq = 0;
  /** The server `connectOrStart` started (it outlives this client: it serves every window). */
  startedServer?: ChildProcess;
  /** `initialize`'s answer, once `initialize` was called. */
  server?: InitializeResult;

  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed?: string;
  /** Live events that came while a catch-up was under way, applied after it. */
  private held?: ServerEvent[];
  private catching?: Promise<void>;

  private constructor(
    private readonly wire: Wire,
    readonly child?: ChildProcess,
  ) {
    super();
    const splitter = new LineSplitter(MAX_INCOMING_LINE);
    wire.onData((chunk) => {
      for (const piece of splitter.push(chunk)) {
        if ("line" in piece) this.receive(piece.line);
        else this.emit("warning", `a line of ${piece.tooLong} bytes from the server was skipped`);
      }
    });
    wire.onClose((why) => this.shut(why));
  }

  /** A server of one's own on stdin/stdout (`harness serve`). */
  static spawn(options: SpawnOptions): Client {
    const child = spawn(options.harness, ["serve", ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stderr = new LineSplitter(MAX_INCOMING_LINE);
    child.stderr!.on("data", (chunk: Buffer) => {
      for (const piece of stderr.push(chunk)) {
        if ("line" in piece) options.onStderr?.(piece.line);
      }
    });
    // Writing to a server that died is told by `close`; the pipe's own error adds nothing.
    child.stdin!.on("error", () => {});
    let spawnError: string | undefined;
    const wire: Wire = {
      write: (bytes) => void child.stdin!.write(bytes),
      end: () => child.stdin!.end(),
      onData: (listener) => void child.stdout!.on("data", listener),
      onClose: (listener) => {
        child.on("error", (error) => {
          spawnError = `\`${options.harness}\` could not be started: ${error.message} (hint: the setting harness.path names the binary)`;
          listener(spawnError);
        });
        child.on("close", (code, signal) =>
          listener(spawnError ?? `the server exited (${signal ?? `exit code ${code}`})`),
        );
      },
    };
    return new Client(wire, child);
  }

  /** A connection to a server's Unix socket (`harness serve --socket PATH`). */
  static connect(socket: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const stream = net.createConnection(socket);
      stream.once("error", reject);
      stream.once("connect", () => {
        stream.off("error", reject);
        stream.on("error", () => {});
        const wire: Wire = {
          write: (bytes) => void stream.write(bytes),
          end: () => stream.end(),
          onData: (listener) => void stream.on("data", listener),
          onClose: (listener) => void stream.on("close", () => listener(`the socket \`${socket}\` closed`)),
        };
        resolve(new Client(wire));
      });
    });
  }

  /**
   * A connection to the server on `socket`; when none answers there, `harness serve
   * --socket` is started, detached, so that it outlives this window and serves the others.
   */
  static async connectOrStart(socket: string, options: SpawnOptions): Promise<Client> {
    try {
      return await Client.connect(socket);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ECONNREFUSED") throw error;
    }
    const child = spawn(options.harness, ["serve", "--socket", socket, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: "ignore",
      detached: true,
    });
    let exited: string | undefined;
    child.once("error", (error) => (exited = `could not be started: ${error.message}`));
    child.once("exit", (code, signal) => (exited = `exited (${signal ?? `exit code ${code}`})`));
    child.unref();
    const deadline = Date.now() + START_PATIENCE_MS;
    const command = `\`${options.harness} serve --socket ${socket}\``;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        const connected = await Client.connect(socket);
        connected.startedServer = child;
        return connected;
      } catch {
        // One that exited may have lost a race with another window's server, which is as
        // good: the next connect finds it, or the exit was the real trouble.
        if (exited !== undefined) {
          return Client.connect(socket).catch(() => {
            throw new Error(`${command} ${exited} (hint: run it in a terminal to see why)`);
          });
        }
        if (Date.now() > deadline) {
          throw new Error(`${command} did not listen within ${START_PATIENCE_MS / 1000} s`);
        }
      }
    }
  }

  /**
   * Takes over what an earlier connection saw (its tasks and last `seq`) and fetches what
   * happened since: a client that reconnects to a shared socket misses nothing still kept.
   */
  async resume(from: Client): Promise<void> {
    for (const [task, state] of from.tasks) if (!this.tasks.has(task)) this.tasks.set(task, state);
    this.lastSeq = Math.max(this.lastSeq, from.lastSeq);
    await this.catchUp();
  }

  /** Why the connection is gone, or undefined while it is open. */
  get closedBecause(): string | undefined {
    return this.closed;
  }

  /** Sends a request; the promise holds its result, or rejects with an `RpcError`. */
  request<T = unknown>(method: string, params?: object): Promise<T> {
    if (this.closed !== undefined) return Promise.reject(new ClosedError(method, this.closed));
    const id = this.nextId++;
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, params: params ?? {} }) + "\n";
    const maxLine = this.server?.capabilities.max_line;
    if (maxLine !== undefined && Buffer.byteLength(line) > maxLine) {
      return Promise.reject(
        new RpcError(method, ErrorCode.INVALID_REQUEST, `the request is ${Buffer.byteLength(line)} bytes, over the server's ${maxLine}`),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
      this.wire.write(line);
    });
  }

  async initialize(client = "harness-vscode"): Promise<InitializeResult> {
    const result = await this.request<InitializeResult>("initialize", { client });
    if (result.protocol !== PROTOCOL) {
      throw new Error(`the server speaks \`${result.protocol}\`, not \`${PROTOCOL}\` (hint: harness.path names another program)`);
    }
    this.server = result;
    return result;
  }

  async judge(params: JudgeParams): Promise<TaskState> {
    return this.started((await this.request<{ task: number }>("judge", params)).task);
  }

  async stress(params: StressParams): Promise<TaskState> {
    return this.started((await this.request<{ task: number }>("stress", params)).task);
  }

  async cancel(task: number): Promise<boolean> {
    return (await this.request<{ cancelled: boolean }>("cancel", { task })).cancelled;
  }

  problems(params: { folder?: string; config?: string } = {}): Promise<ProblemsResult> {
    return this.request<ProblemsResult>("problems", params);
  }

  addCase(params: CasesAddParams): Promise<CasesAddResult> {
    return this.request<CasesAddResult>("cases.add", params);
  }

  /** The live page for a panel that posts it the events (`page`), locked to `nonce`. */
  page(nonce?: string): Promise<PageResult> {
    return this.request<PageResult>("page", nonce === undefined ? {} : { nonce });
  }

  async shutdown(): Promise<void> {
    await this.request("shutdown");
  }

  /** Resolves with the task's state once a `task.finished` with `done` was applied. */
  finished(task: number): Promise<TaskState> {
    const state = this.stateOf(task);
    if (state.done) return Promise.resolve(state);
    return new Promise((resolve, reject) => {
      const onTask = (changed: TaskState) => {
        if (changed.task === task && changed.done) {
          this.off("task", onTask);
          this.off("close", onClose);
          resolve(changed);
        }
      };
      const onClose = (why: string) => {
        this.off("task", onTask);
        reject(new ClosedError("judge", `task ${task} did not finish: ${why}`));
      };
      this.on("task", onTask);
      this.once("close", onClose);
    });
  }

  /**
   * Fetches and applies the events after the last one applied (`events {since}`): after a
   * reconnect, or when a notification was missed. Live events that come meanwhile wait, and
   * are applied after (those `events` already gave are dropped by their `seq`).
   */
  catchUp(): Promise<void> {
    if (this.catching !== undefined) return this.catching;
    this.held = [];
    const since = this.lastSeq;
    this.catching = this.request<EventsResult>("events", { since })
      .then((answer) => {
        if (!answer.complete) this.emit("lost", since);
        for (const event of answer.events) this.apply(event);
      })
      .finally(() => {
        const held = this.held ?? [];
        this.held = undefined;
        this.catching = undefined;
        for (const event of held) this.route(event);
      });
    return this.catching;
  }

  /** Closes the connection (a stdio server then ends, as its stdin does). */
  close(): void {
    this.wire.end();
  }

  private stateOf(task: number): TaskState {
    let state = this.tasks.get(task);
    if (state === undefined) {
      state = new TaskState(task);
      this.tasks.set(task, state);
    }
    return state;
  }

  private started(task: number): TaskState {
    const state = this.stateOf(task);
    state.mine = true;
    return state;
  }

  private receive(line: string): void {
    if (line.trim() === "") return;
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
    try {
      message = JSON.parse(line);
    } catch {
      this.emit("warning", `the server wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (message.method === "event") {
      this.route(message.params as ServerEvent);
      return;
    }
    if (typeof message.id !== "number") {
      // An error for a line the server could not read has no id: nothing of ours waits for it.
      if (message.error) this.emit("warning", `the server: ${message.error.message}`);
      return;
    }
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (message.error) {
      pending.reject(new RpcError(pending.method, message.error.code, message.error.message, message.error.data));
    } else {
      // A task's first events may follow its answer in the same chunk, and are routed before
      // the caller's `await` resumes: the task is marked this connection's now, not then.
      const task = (message.result as { task?: unknown } | null)?.task;
      if ((pending.method === "judge" || pending.method === "stress") && typeof task === "number") this.started(task);
      pending.resolve(message.result);
    }
  }

  private route(event: ServerEvent): void {
    if (this.held !== undefined) {
      this.held.push(event);
      return;
    }
    if (event.seq <= this.lastSeq) return;
    if (event.seq > this.lastSeq + 1 && this.lastSeq > 0) {
      // A notification was dropped (this client read too slowly): `events` has it.
      this.catchUp().catch((error: Error) => this.emit("warning", `catching up failed: ${error.message}`));
      this.held!.push(event);
      return;
    }
    this.apply(event);
  }

  private apply(event: ServerEvent): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    if (typeof event.task !== "number") {
      // Of no task: no state to keep for it.
      this.emit("event", event, undefined);
      if (event.kind === "problem.received") this.emit("received", event as ProblemReceived);
      return;
    }
    const state = this.stateOf(event.task);
    state.apply(event);
    this.emit("event", event, state);
    this.emit("task", state, event);
  }

  private shut(why: string): void {
    if (this.closed !== undefined) return;
    this.closed = why;
    for (const pending of this.pending.values()) pending.reject(new ClosedError(pending.method, why));
    this.pending.clear();
    this.emit("close", why);
  }
}
