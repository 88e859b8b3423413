//! The framing on its own: lines cut anywhere by chunks, CRLF, a character split across two
//! chunks, and a line over the bound dropped without holding it.

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { LineSplitter } from "../src/lines";

test("lines split across chunks come whole, several in one chunk each on its own", () => {
  const splitter = new LineSplitter(1024);
  assert.deepEqual(splitter.push(Buffer.from('{"a":')), []);
  assert.deepEqual(splitter.push(Buffer.from('1}\n{"b":2}\n{"c"')), [{ line: '{"a":1}' }, { line: '{"b":2}' }]);
  assert.deepEqual(splitter.push(Buffer.from(":3}\r\n\n")), [{ line: '{"c":3}' }, { line: "" }]);
  assert.deepEqual(splitter.end(), []);
});

test("a character cut between two chunks is decoded once the line is whole", () => {
  const bytes = Buffer.from("«é»\n", "utf8");
  const splitter = new LineSplitter(1024);
  const pieces = [...splitter.push(bytes.subarray(0, 2)), ...splitter.push(bytes.subarray(2, 3)), ...splitter.push(bytes.subarray(3))];
  assert.deepEqual(pieces, [{ line: "«é»" }]);
});

test("a line over the bound is told by its size and the next line is read", () => {
  const splitter = new LineSplitter(8);
  assert.deepEqual(splitter.push(Buffer.from("12345")), []);
  assert.deepEqual(splitter.push(Buffer.from("67890abc")), []);
  assert.deepEqual(splitter.push(Buffer.from("d\nok\n")), [{ tooLong: 14 }, { line: "ok" }]);
  assert.deepEqual(splitter.push(Buffer.from("12345678\n")), [{ line: "12345678" }]);
});

test("what is left without a last newline is handed on at the end", () => {
  const splitter = new LineSplitter(8);
  splitter.push(Buffer.from("tail"));
  assert.deepEqual(splitter.end(), [{ line: "tail" }]);
  assert.deepEqual(splitter.end(), []);
});
