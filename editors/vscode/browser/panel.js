//! Drives the extension's live-page panel inside real VS Code (code-server) with headless
//! Chromium: a file judged from the command palette opens the panel beside it by itself
//! (`harness.panel`), its rows read from the webview's own DOM; the panel closed and opened
//! again with "Harness: Show the live page" is caught up; a second file judged shows live;
//! a problem posted as Competitive Companion posts it to $HARNESS_RECEIVE_PORT opens in the
//! editor and is listed on the page. Run by harness/tests/editor_vscode.rs as drive.js is.
//! Usage: node panel.js URL CHROMIUM SCREENSHOT_FOLDER; prints one JSON object.

const http = require("node:http");
const path = require("node:path");
const puppeteer = require("puppeteer-core");

const [url, chromium, shots] = process.argv.slice(2);
const receivePort = Number(process.env.HARNESS_RECEIVE_PORT);
const PATIENCE_MS = 120_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, probe) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`not within ${PATIENCE_MS} ms: ${what}`);
    await sleep(250);
  }
}

async function statusBar(page) {
  return page.$$eval(".statusbar-item", (items) => items.map((item) => item.textContent.trim()).filter(Boolean));
}

async function untilStatus(page, pattern) {
  return until(`a status bar item like ${pattern}`, async () => {
    const items = await statusBar(page);
    return items.some((item) => pattern.test(item)) && items;
  });
}

async function chord(page, key) {
  await page.keyboard.down("Control");
  await page.keyboard.press(key);
  await page.keyboard.up("Control");
}

async function open(page, file) {
  await page.click(".editor-group-container");
  await chord(page, "KeyP");
  await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: PATIENCE_MS });
  await page.keyboard.type(file);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${path.basename(file)}"]`, { timeout: PATIENCE_MS });
  await page.keyboard.press("Enter");
  await page.waitForSelector(`.tabs-container .tab[aria-label*="${path.basename(file)}"]`, { timeout: PATIENCE_MS });
}

async function command(page, title) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: PATIENCE_MS });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`, { timeout: PATIENCE_MS });
  await page.keyboard.press("Enter");
}

/** The frame the live page is drawn in (a webview is an iframe in an iframe), if open. */
async function livePage(page) {
  for (const frame of page.frames()) {
    const ours = await frame.evaluate(() => document.body?.dataset.feed === "message" && !!document.getElementById("tasks")).catch(() => false);
    if (ours) return frame;
  }
  return undefined;
}

/** What the live page shows: its status line, each task with its verdict and rows, the received. */
function drawn(frame) {
  return frame.evaluate(() => ({
    status: document.getElementById("status").textContent,
    seq: Number(document.body.dataset.seq || 0),
    tasks: [...document.querySelectorAll("section.task")].map((section) => ({
      title: section.querySelector(".title").textContent,
      verdict: section.dataset.verdict || null,
      done: section.dataset.done === "true",
      progress: section.querySelector(".progress").textContent,
      rows: [...section.querySelectorAll("tr.case")].map((row) => [row.dataset.case, row.dataset.verdict, row.cells[2].textContent]),
      failures: [...section.querySelectorAll("details.failure")].map((failure) => failure.dataset.case),
    })),
    received: [...document.querySelectorAll("#received li")].map((item) => item.textContent),
  }));
}

/** Waits until the live page shows what `wanted` looks for; returns what it showed. */
async function untilDrawn(page, what, wanted) {
  return until(`the live page to show ${what}`, async () => {
    const frame = await livePage(page);
    if (!frame) return undefined;
    const shown = await drawn(frame);
    return wanted(shown) && shown;
  });
}

function postProblem(port) {
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
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, method: "POST", path: "/", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (answer) => {
        answer.resume();
        answer.on("end", () => resolve(answer.statusCode));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--window-size=1400,900"],
    defaultViewport: { width: 1400, height: 900 },
  });
  const result = {};
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: PATIENCE_MS });
    await page.waitForSelector(".monaco-workbench .statusbar", { timeout: PATIENCE_MS });

    // The first judge opens the panel beside the editor (the setting's default).
    await open(page, "practice/a.py");
    await command(page, "Harness: Judge this file");
    await untilStatus(page, /^Harness: .*\(\d+\/\d+\)/);
    result.opened = await untilDrawn(page, "a.py's task finished", (shown) => shown.tasks.some((t) => t.title === "a.py" && t.done));
    result.opened.tab = await page.$$eval('.tabs-container .tab[aria-label*="Harness · live"]', (tabs) => tabs.length);

    // Closed, and opened again from the palette: caught up with what was judged.
    await page.click('.tabs-container .tab[aria-label*="Harness · live"]');
    await page.click('.tabs-container .tab[aria-label*="Harness · live"] .tab-actions .action-label');
    await until("the panel to close", async () => !(await livePage(page)));
    await open(page, "practice/a.py");
    await command(page, "Harness: Show the live page");
    result.reopened = await untilDrawn(page, "a.py's task again", (shown) => shown.tasks.some((t) => t.title === "a.py" && t.done));

    // A file judged with the panel open: its task drawn live, beside the first.
    await page.screenshot({ path: path.join(shots, "reopened.png") });
    await open(page, "live/b.py");
    await command(page, "Harness: Judge this file");
    await untilStatus(page, /^Harness: AC \(1\/1\)$/);
    result.live = await untilDrawn(page, "two tasks finished", (shown) => shown.tasks.length === 2 && shown.tasks.every((t) => t.done));
    await sleep(300);
    await page.screenshot({ path: path.join(shots, "panel.png") });

    // Competitive Companion sends a problem: the editor opens its solution file, the page lists it.
    result.posted = await until("the receiver to take the problem", () => postProblem(receivePort).catch(() => undefined));
    await page.waitForSelector('.tabs-container .tab[aria-label*="cf1900a.py"]', { timeout: PATIENCE_MS });
    result.received = await untilDrawn(page, "the received problem", (shown) => shown.received.length > 0);
    result.received.tabs = await page.$$eval(".tabs-container .tab", (tabs) => tabs.map((tab) => tab.getAttribute("aria-label")));
    await sleep(300);
    await page.screenshot({ path: path.join(shots, "received.png") });
  } catch (error) {
    result.error = String(error && error.stack ? error.stack : error);
    await page.screenshot({ path: path.join(shots, "panel-failed.png") }).catch(() => {});
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
})();
