// A child's output kept with bounded memory: the first and the last bytes of a stream, the middle
// dropped and counted, so a runner or command that prints gigabytes costs govern no more memory
// than one that prints a page (docs/security.md, "Output").

/** Bytes kept at each end of a stream whose output is only shown (runners' logs, commands' output). */
export const LOG_KEEP_BYTES = 64 * 1024;

/** The note that stands where the middle of a stream was dropped. */
export function omittedNote(bytes: number): string {
  return `[${bytes} bytes omitted]`;
}

export class HeadAndTail {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly keep: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.headBytes < this.keep) {
      const take = Math.min(this.keep - this.headBytes, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Whole chunks no longer needed for the last `keep` bytes are let go as they pass.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.keep) this.tailBytes -= this.tail.shift()!.length;
  }

  /** The text kept and the number of bytes dropped; where bytes were dropped, a line saying how many stands in their place. */
  result(): { text: string; omitted: number } {
    const head = Buffer.concat(this.head);
    if (this.total === this.headBytes + this.tailBytes && this.tailBytes <= this.keep) {
      return { text: Buffer.concat([head, ...this.tail]).toString('utf8'), omitted: 0 };
    }
    const tail = wholeLines(Buffer.concat(this.tail).subarray(-this.keep));
    const omitted = this.total - head.length - tail.length;
    const headText = head.toString('utf8');
    return { text: `${headText}${headText.endsWith('\n') ? '' : '\n'}${omittedNote(omitted)}\n${tail.toString('utf8')}`, omitted };
  }
}

/** The tail from its first whole line on (a cut line would read as a line that was never printed). */
function wholeLines(tail: Buffer): Buffer {
  const newline = tail.indexOf(10);
  return newline >= 0 && newline < tail.length - 1 ? tail.subarray(newline + 1) : tail;
}
