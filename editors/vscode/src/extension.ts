//! The VS Code side, and only glue: commands, the status bar, diagnostics, the output
//! channel and the live page's panel, fed by the protocol client (client.ts), its task
//! states and the panel's feed (panel.ts). One server per window on stdio, or the one shared
//! `--socket` of the setting `harness.socket`; with `harness.receive`, the server receives
//! Competitive Companion's problems and each one received is opened here.

import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

import { Client, RpcError } from "./client";
import { PageMessage, PanelFeed } from "./panel";
import { Diagnostic, HarnessEvent, Problem, ProblemReceived } from "./protocol";
import { caseLine, diagnosticsByFile, failureLines, finishLine, isSuccess, startLine, statusText } from "./report";
import { TaskState } from "./tasks";

let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let diagnostics: vscode.DiagnosticCollection;
let connecting: Promise<Client> | undefined;
/** The last connection, once closed: a new one takes over its tasks and catches up. */
let previous: Client | undefined;
/** The files each source's last build put diagnostics on, cleared by its next build. */
const diagnosed = new Map<string, vscode.Uri[]>();
/** The task the status bar shows: the last one this window started. */
let shown: number | undefined;
/** The live page's panel while it is open, and what feeds it. */
let panel: vscode.WebviewPanel | undefined;
const feed = new PanelFeed((message: PageMessage) => void panel?.webview.postMessage(message));
/** The panel was opened once (by hand or by the first judge): judging does not reopen it. */
let panelOpened = false;

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel("Harness");
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.command = { title: "Show the cases", command: "harness.showOutput" };
  diagnostics = vscode.languages.createDiagnosticCollection("harness");
  context.subscriptions.push(
    output,
    status,
    diagnostics,
    vscode.commands.registerCommand("harness.judge", () => guarded(judge)),
    vscode.commands.registerCommand("harness.stress", () => guarded(stress)),
    vscode.commands.registerCommand("harness.cancel", () => guarded(cancel)),
    vscode.commands.registerCommand("harness.showOutput", () => output.show(true)),
    vscode.commands.registerCommand("harness.showPage", () => guarded(showPage)),
    vscode.workspace.onDidChangeConfiguration((change) => {
      // A new binary or socket is used from the next command on.
      if (change.affectsConfiguration("harness")) void disconnect();
    }),
    { dispose: () => void disconnect() },
  );
}

export function deactivate(): Promise<void> {
  return disconnect();
}

async function guarded(command: () => Promise<void>): Promise<void> {
  try {
    await command();
  } catch (error) {
    const message = error instanceof RpcError && error.field ? `${error.message} (the field \`${error.field}\`)` : String((error as Error).message ?? error);
    output.appendLine(`error: ${message}`);
    void vscode.window.showErrorMessage(`Harness: ${message}`);
  }
}

function settings() {
  const config = vscode.workspace.getConfiguration("harness");
  return {
    harness: config.get<string>("path") || "harness",
    socket: config.get<string>("socket") ?? "",
    watch: config.get<boolean>("watch") ?? false,
    all: config.get<boolean>("all") ?? false,
    panel: config.get<boolean>("panel") ?? true,
    receive: config.get<boolean>("receive") ?? false,
    receivePort: config.get<number>("receivePort") ?? 4244,
  };
}

/** The window's client, started (or connected) on first use and again after it closed. */
function client(): Promise<Client> {
  connecting ??= open().catch((error) => {
    connecting = undefined;
    throw error;
  });
  return connecting;
}

async function open(): Promise<Client> {
  const { harness, socket, receive, receivePort } = settings();
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const onStderr = (line: string) => output.appendLine(`[server] ${line}`);
  // Problems are stored in the judge.toml found from the workspace's folder (or a new one
  // there). A shared server that is up already receives as it was started.
  const args = receive ? ["--receive", String(receivePort)] : [];
  const opened = socket ? await Client.connectOrStart(socket, { harness, cwd, args }) : Client.spawn({ harness, cwd, onStderr, args });
  opened.on("task", (state: TaskState, event: HarnessEvent) => show(state, event));
  opened.on("received", (event: ProblemReceived) => void openReceived(event));
  opened.on("warning", (text: string) => output.appendLine(`warning: ${text}`));
  opened.on("lost", () => output.appendLine("warning: some events were no longer kept by the server"));
  opened.on("close", (why: string) => {
    output.appendLine(`the server connection closed: ${why}`);
    connecting = undefined;
    previous = opened;
  });
  const hello = await opened.initialize();
  output.appendLine(`connected to harness ${hello.harness}${socket ? ` on ${socket}` : ""}`);
  // Back on a shared server: what happened while away is still kept there. A server of
  // one's own that ended took its tasks with it.
  if (socket && previous) await opened.resume(previous);
  previous = undefined;
  if (panel) await loadPage(opened, panel);
  return opened;
}

async function disconnect(): Promise<void> {
  const current = connecting;
  connecting = undefined;
  if (current) (await current.catch(() => undefined))?.close();
}

/** The active editor's file, saved (the judge reads it from disk). */
async function activeSource(): Promise<string> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file") throw new Error("open the source file to judge first");
  if (editor.document.isDirty) await editor.document.save();
  return editor.document.uri.fsPath;
}

/**
 * The problem to judge on, picked from the judge.toml found from the source's folder; none
 * (the cases beside the source) when there is no judge.toml or that is picked. Undefined
 * when the pick was dismissed.
 */
async function pickProblem(harness: Client, source: string): Promise<{ problem?: string } | undefined> {
  let problems: Problem[];
  try {
    problems = (await harness.problems({ folder: path.dirname(source) })).problems;
  } catch (error) {
    // No judge.toml up from here: the source is judged on its folder's cases.
    if (error instanceof RpcError) return {};
    throw error;
  }
  if (problems.length === 0) return {};
  const beside = { label: "$(folder) cases beside the source", description: "test/", problem: undefined as string | undefined };
  const items = [
    ...problems.map((p) => ({
      label: p.id,
      description: p.title ?? "",
      detail: `${p.time_limit_ms} ms, ${Math.round(p.memory_kib / 1024)} MiB, ${p.cases ?? "?"} cases${p.interactive ? ", interactive" : ""}${p.scored ? ", scored" : ""}`,
      problem: p.id as string | undefined,
    })),
    beside,
  ];
  // The problem named like the file is the likely one: offered first.
  const stem = path.basename(source).replace(/\.[^.]*$/, "");
  items.sort((a, b) => Number(b.problem === stem) - Number(a.problem === stem));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: "Judge on which problem?" });
  return picked && { problem: picked.problem };
}

async function judge(): Promise<void> {
  const source = await activeSource();
  const harness = await client();
  const picked = await pickProblem(harness, source);
  if (!picked) return;
  const { watch, all } = settings();
  // A file judged again replaces this window's task on it (a watched one goes on otherwise).
  for (const task of harness.tasks.values()) {
    if (task.mine && !task.done && task.started?.source === source) await harness.cancel(task.task);
  }
  const state = await harness.judge({ source, ...picked, watch, all });
  follow(state);
  if (settings().panel) {
    if (!panelOpened) await showPage();
    // Behind another editor it would draw nothing: judging shows it again, beside.
    else if (panel && !panel.visible) panel.reveal(vscode.ViewColumn.Beside, true);
  }
}

async function stress(): Promise<void> {
  const source = await activeSource();
  const harness = await client();
  const picked = await pickProblem(harness, source);
  if (!picked) return;
  if (picked.problem !== undefined) {
    follow(await harness.stress({ source, problem: picked.problem }));
    return;
  }
  const generator = await vscode.window.showInputBox({ prompt: "The generator (a source or a command; it gets the seed)", ignoreFocusOut: true });
  if (!generator) return;
  const reference = await vscode.window.showInputBox({ prompt: "The reference solution (brute force)", ignoreFocusOut: true });
  if (!reference) return;
  follow(await harness.stress({ source, generator, reference }));
}

async function cancel(): Promise<void> {
  const harness = await client();
  const running = [...harness.tasks.values()].filter((t) => t.mine && !t.done);
  if (running.length === 0) {
    void vscode.window.showInformationMessage("Harness: no task of this window is running");
    return;
  }
  const task =
    running.length === 1
      ? running[0]
      : (await vscode.window.showQuickPick(running.map((t) => ({ label: `task ${t.task}`, description: t.started?.source ?? "", state: t })), { placeHolder: "Cancel which task?" }))?.state;
  if (task) await harness.cancel(task.task);
}

function follow(state: TaskState): void {
  shown = state.task;
  output.show(true);
  status.text = "$(sync~spin) Harness";
  status.show();
}

const SEVERITY: Record<Diagnostic["severity"], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  note: vscode.DiagnosticSeverity.Information,
};

/** One event of a task this window started, shown where it belongs. */
function show(state: TaskState, event: HarnessEvent): void {
  if (!state.mine) return;
  switch (event.kind) {
    case "task.started":
      output.appendLine("");
      output.appendLine(startLine(event));
      break;
    case "compile.finished": {
      const source = state.started?.source ?? "";
      for (const uri of diagnosed.get(source) ?? []) diagnostics.delete(uri);
      const placed = [...diagnosticsByFile(event.diagnostics, source)];
      diagnosed.set(source, placed.map(([file]) => vscode.Uri.file(file)));
      for (const [file, list] of placed) {
        diagnostics.set(
          vscode.Uri.file(file),
          list.map((d) => {
            // The compiler counts from 1; a column of 0 is "the whole line".
            const line = Math.max(d.line - 1, 0);
            const range = d.column > 0 ? new vscode.Range(line, d.column - 1, line, d.column) : new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER);
            const item = new vscode.Diagnostic(range, d.text, SEVERITY[d.severity] ?? vscode.DiagnosticSeverity.Error);
            item.source = "harness";
            return item;
          }),
        );
      }
      if (!event.ok) {
        output.appendLine("compile error:");
        output.appendLine(event.message);
      }
      break;
    }
    case "case.finished":
      output.appendLine(caseLine(event, state.started?.limits));
      for (const line of failureLines(event)) output.appendLine(line);
      break;
    case "stress.shrunk":
      output.appendLine(`  shrinking: ${event.input_bytes} bytes, ${event.verdict}`);
      break;
    case "task.finished":
      output.appendLine(finishLine(event));
      break;
  }
  if (state.task === shown) {
    const done = state.finished !== undefined;
    const icon = !done ? "$(sync~spin)" : isSuccess(state) ? "$(check)" : "$(error)";
    status.text = `${icon} Harness: ${statusText(state)}`;
    status.tooltip = state.started ? `${state.started.source} on ${state.started.problem}` : undefined;
    status.show();
  }
}

/**
 * The live page beside the editor: the server's own document (`page`), as `serve --http`
 * serves it, handed the events by the feed. Scripts only its own, by a fresh nonce.
 */
async function showPage(): Promise<void> {
  panelOpened = true;
  if (panel) {
    panel.reveal(undefined, true);
    return;
  }
  const opened = vscode.window.createWebviewPanel(
    "harness.live",
    "Harness · live",
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    // It loads nothing: no local file is its to read. A page hidden and shown again is
    // reloaded by VS Code, and says so (`ready`): the feed catches it up again.
    { enableScripts: true, localResourceRoots: [] },
  );
  panel = opened;
  opened.webview.onDidReceiveMessage((message: { ready?: unknown }) => {
    if (message?.ready === true && panel === opened) void feed.ready();
  });
  opened.onDidDispose(() => {
    if (panel === opened) {
      panel = undefined;
      feed.detach();
    }
  });
  try {
    await loadPage(await client(), opened);
  } catch (error) {
    opened.dispose();
    throw error;
  }
}

async function loadPage(harness: Client, into: vscode.WebviewPanel): Promise<void> {
  feed.attach(harness);
  into.webview.html = (await harness.page(randomBytes(18).toString("base64"))).html;
}

/**
 * A problem Competitive Companion sent, opened as the Neovim plugin opens it: its solution
 * file when a template made one (named like the problem, so that judging it offers the
 * problem first), else its first sample.
 */
async function openReceived(event: ProblemReceived): Promise<void> {
  const what = `${event.problem}${event.title ? ` (${event.title})` : ""}`;
  output.appendLine(`received ${what}: ${event.samples} samples into ${event.cases}`);
  for (const note of event.notes ?? []) output.appendLine(`  note: ${note}`);
  let file = event.solution ?? undefined;
  if (file === undefined) {
    const samples = await fs.promises.readdir(event.cases).catch(() => [] as string[]);
    const first = samples.filter((name) => name.endsWith(".in")).sort()[0];
    if (first !== undefined) file = path.join(event.cases, first);
  }
  if (file !== undefined) {
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  }
  void vscode.window.showInformationMessage(`Harness: received ${what}`);
}
