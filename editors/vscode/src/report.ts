//! What a task's state looks like to a person, as plain text: the status bar's words, a row
//! per case as it finishes, a failing case's input/expected/received and diff, and where
//! each compiler message belongs. No editor here, so all of it is tested under node.

import * as fs from "node:fs";
import * as path from "node:path";

import { CaseFinished, Diagnostic, Limits, TaskFinished, TaskStarted } from "./protocol";
import { TaskState } from "./tasks";

/** The status bar's text for a task: its verdict when over, its progress while it runs. */
export function statusText(state: TaskState): string {
  const planned = state.started?.cases.length ?? 0;
  const finished = state.finished;
  if (finished === undefined) {
    if (state.started?.command === "stress") {
      return `stress: ${state.progress?.iteration ?? 0} tried${state.shrunk ? ", shrinking" : ""}`;
    }
    return `${state.cases.length}/${planned}`;
  }
  if (finished.cancelled) return "cancelled";
  if (finished.error !== undefined) return "error";
  const verdict = finished.verdict ?? "?";
  const passed = state.cases.filter((c) => c.verdict === "AC").length;
  const failure = finished.first_failure ?? state.firstFailure?.case;
  const score = finished.score != null && finished.max_score != null ? ` ${finished.score}/${finished.max_score}` : "";
  if (state.started?.command === "stress") return `stress: ${verdict}`;
  if (verdict === "CE") return "CE";
  const on = verdict !== "AC" && failure ? ` on ${failure}` : "";
  return `${verdict}${on} (${passed}/${finished.cases_planned ?? planned})${score}`;
}

/** Whether the status bar shows the task as a success. */
export function isSuccess(state: TaskState): boolean {
  return state.finished?.verdict === "AC";
}

function mib(kib: number): string {
  return `${(kib / 1024).toFixed(1)} MiB`;
}

/** The head line of a run: what is judged, on what, under which limits. */
export function startLine(started: TaskStarted): string {
  const run = started.run > 1 ? ` (run ${started.run}, on save)` : "";
  const limits = `${started.limits.time_ms} ms, ${mib(started.limits.memory_kib)}`;
  if (started.command === "stress") {
    return `stress ${started.source} [${started.language}] on ${started.problem}, ${limits}${run}`;
  }
  return `judge ${started.source} [${started.language}] on ${started.problem}: ${started.cases.length} cases, ${limits}${run}`;
}

/** One row per case: name, verdict, CPU time against the limit, memory, and why. */
export function caseLine(finished: CaseFinished, limits?: Limits): string {
  const limit = limits ? ` / ${limits.time_ms}` : "";
  const score = finished.max_score !== undefined ? `  ${finished.score ?? 0}/${finished.max_score}` : "";
  const sensitive = finished.time_sensitive ? "  (near the limit)" : "";
  const reason = finished.verdict !== "AC" && finished.reason ? `  ${finished.reason}` : "";
  return `  ${finished.case.padEnd(12)} ${finished.verdict.padEnd(4)} ${`${finished.time_ms}${limit} ms`.padStart(14)}  ${mib(finished.memory_kib).padStart(10)}${score}${sensitive}${reason}`;
}

function block(title: string, text: string | undefined, truncated?: boolean): string[] {
  if (text === undefined) return [];
  const body = text.replace(/\n$/, "").split("\n").map((line) => `      ${line}`);
  return [`    ${title}:`, ...body, ...(truncated ? ["      …"] : [])];
}

/** What a failing case showed: the hint, its input, expected and received, the diff, stderr. */
export function failureLines(finished: CaseFinished): string[] {
  if (finished.verdict === "AC") return [];
  return [
    ...(finished.hint ? [`    hint: ${finished.hint}`] : []),
    ...block("input", finished.input, finished.input_truncated),
    ...(finished.diff ? block("diff", finished.diff) : [...block("expected", finished.expected, finished.expected_truncated), ...block("received", finished.received, finished.received_truncated)]),
    ...block("stderr", finished.stderr),
  ];
}

/** The last line of a run. */
export function finishLine(finished: TaskFinished): string {
  if (finished.cancelled) return "cancelled";
  if (finished.error !== undefined) return `error: ${finished.error}`;
  const counts = Object.entries(finished.counts ?? {})
    .map(([verdict, n]) => `${n} ${verdict}`)
    .join(", ");
  const score = finished.score != null ? `, score ${finished.score}/${finished.max_score}` : "";
  const watch = finished.done ? "" : " (watching: judged again on save)";
  return `${finished.verdict ?? "no verdict"}${counts ? ` (${counts})` : ""}${score}${watch}`;
}

/**
 * The compiler's diagnostics by the file they belong to, as absolute paths. A compiler may
 * name the file as it was given it (relative to the build's folder, or a copy in it): a name
 * that is no file is taken to be the source when it has the source's name.
 */
export function diagnosticsByFile(diagnostics: Diagnostic[], source: string): Map<string, Diagnostic[]> {
  const folder = path.dirname(source);
  const byFile = new Map<string, Diagnostic[]>();
  for (const diagnostic of diagnostics) {
    let file = path.resolve(folder, diagnostic.file);
    if (!fs.existsSync(file) && path.basename(file) === path.basename(source)) file = source;
    const list = byFile.get(file) ?? [];
    list.push(diagnostic);
    byFile.set(file, list);
  }
  return byFile;
}
