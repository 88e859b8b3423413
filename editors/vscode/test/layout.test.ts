//! The protocol client is a plain module: only extension.ts may import `vscode`, so that the
//! client, the task states and the rendering run (and are tested) under plain node.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

const SOURCES = path.join(__dirname, "..", "..", "src");

test("no module but extension.ts imports vscode, and extension.ts does", () => {
  const files = fs.readdirSync(SOURCES).filter((name) => name.endsWith(".ts"));
  assert.ok(files.includes("client.ts"), `the sources are in ${SOURCES}`);
  const importsVscode = (name: string) => /from\s+["']vscode["']|require\(\s*["']vscode["']\s*\)/.test(fs.readFileSync(path.join(SOURCES, name), "utf8"));
  assert.deepEqual(files.filter(importsVscode), ["extension.ts"]);
});
