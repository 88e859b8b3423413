//! The shapes of `harness serve`'s protocol that this client reads, as
//! docs/src/reference/protocol.md defines them. Fields the client does not read are kept in
//! the objects as they came (the index signatures), so a newer server's fields pass through.

export const PROTOCOL = "harness-serve";
export const PROTOCOL_VERSION = 1;

export interface InitializeResult {
  protocol: string;
  version: number;
  harness: string;
  capabilities: {
    methods: string[];
    events: string[];
    max_line: number;
    errors: Record<string, string>;
    watch: boolean;
    problem_received: boolean;
    [more: string]: unknown;
  };
}

export interface JudgeParams {
  source: string;
  problem?: string;
  cases?: string;
  checker?: string;
  time_limit?: string;
  memory_limit?: string;
  sanitize?: boolean;
  watch?: boolean;
  lang?: string;
  case?: string;
  all?: boolean;
  jobs?: number;
  config?: string;
  keep?: boolean;
}

export interface StressParams {
  source: string;
  problem?: string;
  generator?: string;
  reference?: string;
  validator?: string;
  seed?: number;
  iterations?: number;
  time?: string;
  jobs?: number;
  shrink?: boolean;
  save?: string;
  sanitize?: boolean;
  lang?: string;
  time_limit?: string;
  memory_limit?: string;
  checker?: string;
  config?: string;
  keep?: boolean;
}

export interface Problem {
  id: string;
  title: string | null;
  time_limit_ms: number;
  memory_kib: number;
  cases_folder: string;
  cases: number | null;
  cases_error?: string | null;
  interactive: boolean;
  package: string | null;
  scored: boolean;
  [more: string]: unknown;
}

export interface ProblemsResult {
  config: string | null;
  problems: Problem[];
}

export interface CasesAddParams {
  problem?: string;
  folder?: string;
  input: string;
  answer?: string;
  name?: string;
  config?: string;
}

export interface CasesAddResult {
  name: string;
  input: string;
  answer: string;
  answer_from: "given" | "reference";
}

export interface EventsResult {
  events: ServerEvent[];
  next: number;
  complete: boolean;
}

export interface Limits {
  time_ms: number;
  wall_ms: number;
  memory_kib: number;
  output_kib: number;
}

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  severity: "error" | "warning" | "note";
  text: string;
}

interface EventBase {
  seq: number;
  task: number;
  run: number;
  [more: string]: unknown;
}

export interface TaskStarted extends EventBase {
  kind: "task.started";
  command: "judge" | "stress";
  problem: string;
  source: string;
  language: string;
  limits: Limits;
  cases: string[];
  jobs: number;
  sanitized: string | null;
}

export interface CompileFinished extends EventBase {
  kind: "compile.finished";
  ok: boolean;
  message: string;
  diagnostics: Diagnostic[];
}

export interface CaseFinished extends EventBase {
  kind: "case.finished";
  case: string;
  verdict: string;
  time_ms: number;
  wall_ms: number;
  memory_kib: number;
  reason?: string;
  time_sensitive?: boolean;
  hint?: string;
  input_path?: string;
  input?: string;
  input_truncated?: boolean;
  expected?: string;
  expected_truncated?: boolean;
  received?: string;
  received_truncated?: boolean;
  diff?: string;
  stderr?: string;
  score?: number;
  max_score?: number;
}

export interface StressProgress extends EventBase {
  kind: "stress.progress";
  iteration: number;
  seed: number;
  failed: string | null;
}

export interface StressShrunk extends EventBase {
  kind: "stress.shrunk";
  steps: number;
  tried: number;
  input: string;
  input_truncated: boolean;
  input_bytes: number;
  verdict: string;
}

export interface TaskFinished extends EventBase {
  kind: "task.finished";
  done: boolean;
  verdict: string | null;
  cancelled?: boolean;
  error?: string;
  first_failure?: string | null;
  compile_ok?: boolean;
  counts?: Record<string, number>;
  cases_planned?: number;
  score?: number | null;
  max_score?: number | null;
  stress?: Record<string, unknown>;
}

/** A kind this client does not know yet (a newer server's): routed, not read. */
export interface OtherEvent extends EventBase {
  kind: string;
}

export type HarnessEvent =
  | TaskStarted
  | CompileFinished
  | CaseFinished
  | StressProgress
  | StressShrunk
  | TaskFinished;

/** Competitive Companion sent a problem (a server with `--receive`); of no task. */
export interface ProblemReceived {
  seq: number;
  task: null;
  kind: "problem.received";
  problem: string;
  title: string;
  group: string;
  url: string;
  config: string;
  folder: string;
  cases: string;
  samples: number;
  time_limit_ms: number | null;
  memory_kib: number | null;
  interactive: boolean;
  updated: boolean;
  solution: string | null;
  notes: string[];
  [more: string]: unknown;
}

/** Every event the server sends: a task's, or one of no task. */
export type ServerEvent = HarnessEvent | ProblemReceived;

/** `page`'s answer: the live page for a panel that hands it the events. */
export interface PageResult {
  html: string;
}

/** The protocol's error codes (the `errors` of `initialize`'s capabilities). */
export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  UNKNOWN_TASK: -32001,
  FAILED: -32002,
  SHUTTING_DOWN: -32003,
} as const;
