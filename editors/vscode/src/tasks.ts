//! One task's state as its events tell it: the plan, the build, the cases so far, stress
//! progress and the end. A watched task runs again on each save (`run` 1, 2, …): a new run's
//! `task.started` starts the state afresh, so what is shown is always the latest run's.

import {
  CaseFinished,
  CompileFinished,
  HarnessEvent,
  StressProgress,
  StressShrunk,
  TaskFinished,
  TaskStarted,
} from "./protocol";

export class TaskState {
  /** This connection started it (other windows' tasks on a shared socket are seen too). */
  mine = false;
  run = 0;
  started?: TaskStarted;
  compile?: CompileFinished;
  cases: CaseFinished[] = [];
  progress?: StressProgress;
  shrunk?: StressShrunk;
  finished?: TaskFinished;

  constructor(readonly task: number) {}

  /** The task is over: not just a run of a watched task. */
  get done(): boolean {
    return this.finished?.done === true;
  }

  /** The run is under way (started, not finished). */
  get running(): boolean {
    return this.run > 0 && this.finished === undefined;
  }

  apply(event: HarnessEvent): void {
    if (event.run > this.run) {
      this.run = event.run;
      this.started = undefined;
      this.compile = undefined;
      this.cases = [];
      this.progress = undefined;
      this.shrunk = undefined;
      this.finished = undefined;
    } else if (event.run < this.run) {
      return;
    }
    switch (event.kind) {
      case "task.started":
        this.started = event;
        break;
      case "compile.finished":
        this.compile = event;
        break;
      case "case.finished":
        this.cases.push(event);
        break;
      case "stress.progress":
        this.progress = event;
        break;
      case "stress.shrunk":
        this.shrunk = event;
        break;
      case "task.finished":
        this.finished = event;
        break;
    }
  }

  /** The first case that did not pass, in the order they were told. */
  get firstFailure(): CaseFinished | undefined {
    return this.cases.find((c) => c.verdict !== "AC" && c.verdict !== "ran");
  }
}
