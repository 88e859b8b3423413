//! Drives the extension inside real VS Code (code-server) with headless Chromium, as a person
//! would: opens a file with Quick Open, runs "Harness: Judge this file" (and "Cancel a
//! task") from the command palette, picks a problem, and reads what the window then shows
//! (the status bar, the output channel, the problems count, the squiggles under the code). Run by harness/tests/editor_vscode.rs
//! with code-server's node and puppeteer-core from .ci/install-code-server on NODE_PATH.
//! Usage: node drive.js URL CHROMIUM SCREENSHOT_FOLDER; prints one JSON object.

const path = require("node:path");
const puppeteer = require("puppeteer-core");

const [url, chromium, shots] = process.argv.slice(2);
/** Far longer than anything here takes: a loaded machine is slow, not wrong. */
const PATIENCE_MS = 120_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusBar(page) {
  return page.$$eval(".statusbar-item", (items) => items.map((item) => item.textContent.trim()).filter(Boolean));
}

/** Waits until an item of the status bar matches `pattern`; returns them all. */
async function untilStatus(page, pattern) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    const items = await statusBar(page);
    if (items.some((item) => pattern.test(item))) return items;
    if (Date.now() > deadline) throw new Error(`no status bar item like ${pattern}: ${JSON.stringify(items)}`);
    await sleep(250);
  }
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
  // The row of this file is clicked, not the first row taken with Enter: while the list is
  // still filtering, the first row can be another file the letters match in order (the
  // editor's own settings under home/ once opened customBuiltinExtensionsCache.json for
  // contest/sum.py).
  const row = `.quick-input-list .monaco-list-row[aria-label*="${path.basename(file)}"]`;
  await page.waitForSelector(row, { visible: true, timeout: PATIENCE_MS });
  await page.click(row);
  await page.waitForSelector(`.tabs-container .tab[aria-label*="${path.basename(file)}"]`, { timeout: PATIENCE_MS });
}

/** Whether the quick input (palette, Quick Open, a pick) is on screen. */
async function quickInputShown(page) {
  return page.$eval(".quick-input-widget", (widget) => widget.style.display !== "none" && widget.offsetParent !== null).catch(() => false);
}

/**
 * Runs a command from the palette. The row is focused before Enter, and the palette must have
 * closed after it: on a loaded machine the list can still be filtering when the row first
 * shows, and an Enter then is lost.
 */
async function command(page, title) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: PATIENCE_MS });
  await page.keyboard.type(title);
  const row = `.quick-input-list .monaco-list-row[aria-label*="${title}"]`;
  await page.waitForSelector(`${row}.focused`, { timeout: PATIENCE_MS });
  await page.keyboard.press("Enter");
  // The closed palette keeps its rows in the page, hidden: only a shown one is still there.
  const stillThere = async () => (await quickInputShown(page)) && (await page.$(`${row}.focused`)) !== null;
  const deadline = Date.now() + 10_000;
  while ((await stillThere()) && Date.now() < deadline) await sleep(100);
  if (await stillThere()) await page.keyboard.press("Enter");
}

/**
 * "Judge this file", then the status it ends in. A judge the window never started (the
 * Harness item unchanged and no pick on screen for a while) is asked for again, and said
 * so: the result keeps each try. `pick` (an attribute selector) is the row of the problem
 * pick to take when one is offered.
 */
async function judgeUntil(page, pattern, tries, pick) {
  const harnessItem = async () => (await statusBar(page)).find((item) => /^Harness\b/.test(item));
  const before = await harnessItem();
  for (let attempt = 1; ; attempt++) {
    await command(page, "Harness: Judge this file");
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const now = await harnessItem();
      if (pick && (await page.$(`.quick-input-list .monaco-list-row.focused[${pick}]`))) {
        await page.keyboard.press("Enter");
        return untilStatus(page, pattern);
      }
      if ((now !== undefined && now !== before) || (!pick && (await quickInputShown(page)))) return untilStatus(page, pattern);
      await sleep(250);
    }
    tries.push(`try ${attempt}: nothing started: ${JSON.stringify(await seen(page))}`);
    if (attempt === 3) return untilStatus(page, pattern);
  }
}

/** What the window shows, for a failure's message: the status bar, toasts, the output. */
async function seen(page) {
  const texts = (selector) => page.$$eval(selector, (nodes) => nodes.map((node) => node.textContent.trim()).filter(Boolean)).catch(() => []);
  return {
    status: await statusBar(page),
    notifications: await texts(".notifications-toasts .notification-list-item-message, .notifications-center .notification-list-item-message"),
    quickInput: (await quickInputShown(page)) ? await texts(".quick-input-widget .monaco-list-row") : [],
    output: (await outputText(page)).slice(-3000),
  };
}

/**
 * The output channel's visible text. Monaco reuses its line elements, so their order in the
 * tree is not the lines' order: they are put in order by where they are drawn. Spaces are
 * drawn as no-break spaces.
 */
async function outputText(page) {
  const text = await page
    .$eval(".part.panel .monaco-editor .view-lines", (lines) =>
      [...lines.querySelectorAll(".view-line")]
        .map((line) => ({ top: parseFloat(line.style.top) || 0, text: line.innerText }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join("\n"),
    )
    .catch(() => "");
  return text.replace(/\u00a0/g, " ");
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--window-size=1400,900"],
    defaultViewport: { width: 1400, height: 900 },
  });
  const result = { retried: [] };
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: PATIENCE_MS });
    await page.waitForSelector(".monaco-workbench .statusbar", { timeout: PATIENCE_MS });

    await open(page, "practice/a.py");
    result.judged = { status: await judgeUntil(page, /^Harness: .*\(\d+\/\d+\)/, result.retried) };
    await sleep(500);
    result.judged.output = await outputText(page);
    await page.screenshot({ path: path.join(shots, "judged.png") });

    await open(page, "practice/bad.cpp");
    result.compileError = { status: await judgeUntil(page, /^Harness: CE$/, result.retried) };
    await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: PATIENCE_MS });
    result.compileError.squiggles = await page.$$eval(".monaco-editor .squiggly-error", (marks) => marks.length);
    result.compileError.status = await statusBar(page);
    await page.screenshot({ path: path.join(shots, "compile-error.png") });

    // A judge.toml up from the file: the pick offers its problem, the one named like the file
    // first, and Enter takes it.
    await open(page, "contest/sum.py");
    await command(page, "Harness: Judge this file");
    await page.waitForSelector('.quick-input-list .monaco-list-row[aria-label*="sum"]', { timeout: PATIENCE_MS });
    result.picked = {
      offered: await page.$$eval(".quick-input-list .monaco-list-row", (rows) => rows.map((row) => row.getAttribute("aria-label"))),
    };
    await page.keyboard.press("Enter");
    result.picked.status = await untilStatus(page, /^Harness: .*\(\d+\/\d+\)/);

    // A solution that sleeps (its problem's limit is 600 s), cancelled from the palette.
    await open(page, "slow/sleep.py");
    await judgeUntil(page, /^Harness: .*0\/1$/, result.retried, 'aria-label*="sleep"');
    await command(page, "Harness: Cancel a task");
    result.cancelled = { status: await untilStatus(page, /^Harness: cancelled$/) };
  } catch (error) {
    result.error = String(error && error.stack ? error.stack : error);
    const page = (await browser.pages()).at(-1);
    if (page) {
      result.seen = await seen(page).catch((e) => String(e));
      await page.screenshot({ path: path.join(shots, "failed.png") }).catch(() => undefined);
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
})();
