//! The protocol's framing: one JSON object a line. Bytes come in chunks that cut lines (and
//! UTF-8 characters) anywhere; a line is decoded only once it is whole.

/** What a line splitter hands on: a whole line, or the size of one too long to keep. */
export type Piece = { line: string } | { tooLong: number };

/**
 * Cuts a byte stream into lines. A line longer than `maxLine` bytes is not held: its bytes
 * are counted and dropped up to its newline, and it is handed on as `tooLong`, so a stray
 * huge line costs no memory and the next line is read as usual.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private skipping = false;

  constructor(private readonly maxLine: number) {}

  push(chunk: Buffer): Piece[] {
    const pieces: Piece[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.keep(chunk.subarray(start, end));
      if (newline === -1) break;
      pieces.push(this.take());
      start = newline + 1;
    }
    return pieces;
  }

  /** What is left when the stream ends without a last newline. */
  end(): Piece[] {
    return this.held > 0 || this.skipping ? [this.take()] : [];
  }

  private keep(bytes: Buffer): void {
    this.held += bytes.length;
    if (this.held > this.maxLine) {
      this.skipping = true;
      this.parts = [];
    } else if (bytes.length > 0) {
      this.parts.push(bytes);
    }
  }

  private take(): Piece {
    const piece: Piece = this.skipping
      ? { tooLong: this.held }
      : { line: Buffer.concat(this.parts).toString("utf8").replace(/\r$/, "") };
    this.parts = [];
    this.held = 0;
    this.skipping = false;
    return piece;
  }
}
