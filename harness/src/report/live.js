// The live page's script: follows `harness serve`'s event stream (server-sent events on
// /events, each message one event as the protocol's `event` notification carries it, its
// `id` the event's `seq`) and draws each task as the HTML report draws a run. Every string
// from the server goes in as text (textContent, text nodes, attribute values), never as
// markup. Field names are those of docs/src/reference/protocol.md. In an editor's panel the
// same events come by postMessage instead (`hosted` below).
"use strict";
(function () {
  const tasks = new Map();
  const root = document.getElementById("tasks");
  const received = document.getElementById("received");
  const status = document.getElementById("status");
  const empty = document.getElementById("empty");
  let lastSeq = 0;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === undefined || child === null) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  // Verdicts are a fixed set: anything else (a bug, a newer server) is drawn as JE's colour
  // and never becomes a class name of its own.
  const VERDICTS = ["AC", "WA", "TLE", "MLE", "RE", "OLE", "CE", "JE", "ran"];
  function badge(verdict, label) {
    const known = VERDICTS.includes(verdict) ? verdict : "JE";
    return el("span", { class: "badge v-" + known, "data-verdict": verdict || "" }, label || verdict || "?");
  }

  function ms(value) {
    if (typeof value !== "number") return "";
    return value >= 10000 ? (value / 1000).toFixed(1) + " s" : value + " ms";
  }

  function kib(value) {
    if (typeof value !== "number") return "";
    return value >= 1024 ? (value / 1024).toFixed(1) + " MiB" : value + " KiB";
  }

  function str(value) {
    if (value === undefined || value === null) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function base(path) {
    return str(path).split("/").pop();
  }

  // A block of program text, with a note when the server cut it.
  function block(title, value, truncated, cls) {
    if (value === undefined || value === null) return null;
    return el("div", { class: "part", "data-part": title },
      el("h4", {}, title, truncated ? el("span", { class: "muted" }, " (cut)") : null),
      el("pre", { class: cls || "" }, str(value)));
  }

  // The terminal report's diff: `- N │ expected` and `+ N │ received` lines.
  function diff(value) {
    if (typeof value !== "string" || value === "") return null;
    const box = el("pre", { class: "diff" });
    for (const line of value.split("\n")) {
      const head = line.startsWith("--- ") || line.startsWith("+++ ");
      const kind = head ? "muted" : line.startsWith("-") ? "del" : line.startsWith("+") ? "ins" : "";
      box.append(el("span", { class: kind }, line));
    }
    return el("div", { class: "part", "data-part": "diff" }, el("h4", {}, "diff"), box);
  }

  // An interactive case's dialogue: `>` lines the submission said, `<` lines it was told,
  // each side in its own column, in the order they were said.
  function dialogue(interaction) {
    const rows = el("tbody");
    for (const line of interaction.transcript || []) {
      const from = line.startsWith(">") ? "submission" : line.startsWith("<") ? "interactor" : "";
      const said = from ? line.slice(1).replace(/^ /, "") : line;
      rows.append(el("tr", { class: "said " + (from || "note") },
        el("td", { class: "mono" }, from === "submission" ? said : ""),
        el("td", { class: "mono" }, from === "interactor" ? said : from ? "" : said)));
    }
    return el("div", { class: "part", "data-part": "dialogue" },
      el("h4", {}, "dialogue", el("span", { class: "muted" }, " (" + str(interaction.lines) + " lines)")),
      el("table", { class: "dialogue" },
        el("thead", {}, el("tr", {}, el("th", {}, "submission"), el("th", {}, "interactor"))), rows),
      interaction.message ? block("interactor said", interaction.message) : null);
  }

  function task(id) {
    let t = tasks.get(id);
    if (t) return t;
    const head = el("h2", {});
    const verdict = el("span", { class: "verdict" }, badge("ran", "…"));
    const title = el("span", { class: "title mono" }, "task " + id);
    const plan = el("span", { class: "context plan" });
    head.append(verdict, " ", title, " ", plan);
    const progress = el("div", { class: "progress muted" });
    const compile = el("div", { class: "compile" });
    const body = el("tbody");
    const table = el("table", { class: "runs" },
      el("thead", {}, el("tr", {},
        el("th", {}, "case"), el("th", {}, "verdict"), el("th", { class: "num" }, "time"),
        el("th", { class: "num" }, "memory"), el("th", {}, "reason"))),
      body);
    const failures = el("div", { class: "failures" });
    const stress = el("div", { class: "stress" });
    const cases = el("div", { class: "scroll cases" }, table);
    const section = el("section", { class: "task running", "data-task": id },
      head, progress, compile, cases, failures, stress);
    if (empty) empty.hidden = true;
    root.prepend(section);
    t = { id, section, verdict, title, plan, progress, compile, cases, body, failures, stress, done: 0, total: 0, limit: null, run: 0 };
    tasks.set(id, t);
    return t;
  }

  const kinds = {
    "task.started"(t, e) {
      // A watched task runs again on each save: the new run replaces the last one's rows.
      t.run = e.run || 1;
      t.section.dataset.run = String(t.run);
      t.section.classList.add("running");
      t.section.classList.remove("finished");
      t.body.replaceChildren();
      t.failures.replaceChildren();
      t.compile.replaceChildren();
      t.stress.replaceChildren();
      t.done = 0;
      t.total = Array.isArray(e.cases) ? e.cases.length : 0;
      t.limit = e.limits && typeof e.limits.time_ms === "number" ? e.limits.time_ms : null;
      if (e.source) t.title.textContent = base(e.source);
      const parts = [str(e.command), str(e.problem)];
      if (e.language) parts.push(str(e.language));
      if (t.limit !== null) parts.push("limit " + ms(t.limit));
      if (e.limits && typeof e.limits.memory_kib === "number") parts.push(kib(e.limits.memory_kib));
      if (t.total) parts.push(t.total + " cases");
      if (t.run > 1) parts.push("run " + t.run);
      t.plan.replaceChildren(...parts.filter((p) => p).map((p) => el("span", {}, p)));
      t.verdict.replaceChildren(badge("ran", "…"));
      t.progress.textContent = e.command === "stress" ? "stressing…" : "compiling…";
      // A stress run has inputs, not cases: its table would stay empty.
      t.cases.hidden = e.command === "stress";
    },
    "compile.finished"(t, e) {
      if (e.ok === false) {
        const list = el("ul", { class: "diagnostics" });
        for (const d of e.diagnostics || []) {
          list.append(el("li", { class: "mono", "data-severity": str(d.severity) },
            base(d.file) + ":" + str(d.line) + (d.column ? ":" + d.column : "") + " " + str(d.severity) + ": ",
            el("span", {}, str(d.text))));
        }
        t.compile.replaceChildren(el("h3", {}, "compile error"), list,
          el("pre", { class: "compile-message" }, str(e.message)));
      } else if (e.message) {
        t.compile.replaceChildren(el("details", {}, el("summary", {}, "the compiler said"), el("pre", {}, str(e.message))));
      }
      if (t.progress.textContent === "compiling…") t.progress.textContent = "running…";
    },
    "case.finished"(t, e) {
      t.done += 1;
      const name = str(e.case);
      const time = el("td", { class: "num" }, ms(e.time_ms));
      if (t.limit && typeof e.time_ms === "number") {
        const share = Math.round((100 * e.time_ms) / t.limit);
        time.append(el("span", { class: "muted share" }, " " + share + "%"));
        time.title = ms(e.time_ms) + " of the " + ms(t.limit) + " limit";
      }
      if (e.time_sensitive) time.classList.add("near");
      const memory = el("td", { class: "num" }, kib(e.memory_kib));
      const reason = el("td", {}, str(e.reason));
      if (typeof e.score === "number") reason.append(el("span", { class: "muted" }, " " + e.score + "/" + str(e.max_score)));
      t.body.append(el("tr", { class: "case", "data-case": name, "data-verdict": str(e.verdict) },
        el("td", { class: "mono" }, name), el("td", {}, badge(e.verdict)), time, memory, reason));
      t.progress.textContent = t.total ? t.done + " of " + t.total + " cases" : t.done + " cases";
      if (e.verdict && e.verdict !== "AC" && e.verdict !== "ran") {
        const parts = [
          block("input", e.input, e.input_truncated),
          block("expected", e.expected, e.expected_truncated),
          block("received", e.received, e.received_truncated),
          diff(e.diff),
          e.hint ? block("hint", e.hint) : null,
          e.stderr ? block("stderr", e.stderr) : null,
          e.interaction ? dialogue(e.interaction) : null,
        ];
        t.failures.append(el("details", { class: "failure", open: true, "data-case": name },
          el("summary", {}, badge(e.verdict), " ", el("span", { class: "mono" }, name), " ",
            el("span", { class: "muted" }, str(e.reason))),
          e.input_path ? el("div", { class: "muted mono" }, str(e.input_path)) : null,
          ...parts));
      }
    },
    "stress.progress"(t, e) {
      t.progress.textContent = str(e.iteration) + " inputs tried, seed " + str(e.seed) +
        (e.failed ? " failed with " + e.failed : "");
      t.stress.dataset.iterations = str(e.iteration);
    },
    "stress.shrunk"(t, e) {
      t.progress.textContent = "shrinking: " + str(e.steps) + " steps, " + str(e.tried) + " candidates tried";
      t.stress.replaceChildren(el("h3", {}, "smallest failing input so far ",
        badge(e.verdict), el("span", { class: "muted" }, " " + str(e.input_bytes) + " bytes")),
        el("pre", { class: "shrunk" }, str(e.input)));
    },
    "task.finished"(t, e) {
      t.section.classList.remove("running");
      t.section.classList.add("finished");
      t.section.dataset.done = String(e.done === true);
      if (e.cancelled) t.verdict.replaceChildren(badge("ran", "cancelled"));
      else if (e.error) t.verdict.replaceChildren(badge("JE", "error"));
      else t.verdict.replaceChildren(badge(e.verdict));
      t.section.dataset.verdict = str(e.verdict);
      const parts = [];
      if (e.counts) parts.push(Object.entries(e.counts).map(([k, v]) => v + " " + k).join(", "));
      if (typeof e.score === "number") parts.push("score " + e.score + (typeof e.max_score === "number" ? " of " + e.max_score : ""));
      if (typeof e.elapsed_ms === "number") parts.push("in " + ms(e.elapsed_ms));
      if (e.done === false) parts.push("watching: judged again on save");
      if (e.cancelled) parts.push("cancelled");
      t.progress.textContent = parts.join(" · ");
      if (e.error) t.compile.append(el("pre", { class: "error" }, str(e.error)));
      if (e.stress) stressed(t, e.stress);
    },
  };

  // A finished stress run: the counterexample, shrunk, with what each program said.
  function stressed(t, s) {
    const head = s.found
      ? el("h3", {}, "counterexample ", badge(s.verdict), el("span", { class: "muted" }, " seed " + str(s.seed) + ", " + str(s.iterations) + " inputs"))
      : el("h3", {}, "no difference in " + str(s.iterations) + " inputs");
    // replaceChildren would write a null as the text "null".
    t.stress.replaceChildren(...[head,
      s.found ? el("div", { class: "muted" }, str(s.reason)) : null,
      block("input", s.input, false, "counterexample"),
      block("expected", s.expected),
      block("received", s.output),
      s.stderr ? block("stderr", s.stderr) : null,
      s.original_input && s.original_input !== s.input ? block("before shrinking", s.original_input) : null,
      s.saved ? el("div", { class: "muted" }, "saved as " + str(s.saved)) : null].filter((part) => part));
  }

  function problemReceived(e) {
    received.hidden = false;
    received.append(el("li", { class: "received", "data-problem": str(e.problem) },
      el("span", { class: "mono" }, str(e.problem)), " ", str(e.title),
      el("span", { class: "muted" }, " · " + str(e.samples) + " samples into " + str(e.cases))));
  }

  function handle(e) {
    if (typeof e.seq === "number") {
      // A reconnect may hand over what was drawn already.
      if (e.seq <= lastSeq) return;
      lastSeq = e.seq;
    }
    document.body.dataset.seq = String(lastSeq);
    if (e.kind === "problem.received") return problemReceived(e);
    if (typeof e.task !== "number") return;
    const draw = kinds[e.kind];
    if (draw) draw(task(e.task), e);
  }

  function connect() {
    // EventSource sends Last-Event-ID itself when it reconnects; `since` covers a new one.
    const source = new EventSource("/events?since=" + lastSeq);
    source.onopen = () => { status.textContent = "live"; status.className = "ok"; };
    source.onerror = () => { status.textContent = "reconnecting…"; status.className = "mismatch"; };
    source.onmessage = (message) => {
      try { handle(JSON.parse(message.data)); } catch (error) { console.error(error); }
    };
  }

  // In an editor's panel (the `page` method's document): the host posts the events, one or
  // an array a message, having caught the page up first; the page says when it listens, so
  // that a panel the editor reloaded is caught up again from the start.
  function hosted() {
    const host = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : window.parent;
    window.addEventListener("message", (message) => {
      const data = message.data;
      try {
        if (Array.isArray(data)) data.forEach(handle);
        else if (data && typeof data.kind === "string") handle(data);
        else if (data && typeof data.status === "string") {
          status.textContent = data.status;
          status.className = data.status === "live" ? "ok" : "mismatch";
          return;
        } else return;
        if (status.textContent !== "live") { status.textContent = "live"; status.className = "ok"; }
      } catch (error) { console.error(error); }
    });
    status.textContent = "waiting for the editor…";
    host.postMessage({ ready: true }, "*");
  }

  if (document.body.dataset.feed === "message") hosted();
  else connect();
})();
