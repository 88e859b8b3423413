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
  const result = {};
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: PATIENCE_MS });
    await page.waitForSelector(".monaco-workbench .statusbar", { timeout: PATIENCE_MS });

    await open(page, "practice/a.py");
    await command(page, "Harness: Judge this file");
    result.judged = { status: await untilStatus(page, /^Harness: .*\(\d+\/\d+\)/) };
    await sleep(500);
    result.judged.output = await outputText(page);
    await page.screenshot({ path: path.join(shots, "judged.png") });

    await open(page, "practice/bad.cpp");
    await command(page, "Harness: Judge this file");
    result.compileError = { status: await untilStatus(page, /^Harness: CE$/) };
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

    // A solution that sleeps, cancelled from the palette.
    await open(page, "practice/sleep.py");
    await command(page, "Harness: Judge this file");
    await untilStatus(page, /^Harness: 0\/3$/);
    await command(page, "Harness: Cancel a task");
    result.cancelled = { status: await untilStatus(page, /^Harness: cancelled$/) };
  } catch (error) {
    result.error = String(error && error.stack ? error.stack : error);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + "\n");
})();
