/**
 * What V8 says of each of a process's garbage collections (`--trace-gc-nvp` on its stdout, among
 * its other lines): for bench:alloc's bytes and the --gc report of npm run bench.
 */
export interface Collection {
  /** When its line was read (to the millisecond, give or take the pipe). */
  at: number;
  /** s: a scavenge of the young generation; mc: a full mark-compact. */
  kind: string;
  /** How long it stopped the program, in ms. */
  pauseMs: number;
  allocated: number;
  promoted: number;
}

/**
 * The collections V8 reports on the service's stdout (`--trace-gc-nvp`), among its log lines, and
 * the marks the bench writes there through the inspector to know that a collection's line has come.
 */
export class CollectionTrace {
  readonly collections: Collection[] = [];
  private pending = '';
  private readonly marks = new Map<string, () => void>();

  constructor(stdout: NodeJS.ReadableStream) {
    stdout.on('data', (chunk: Buffer) => {
      const lines = (this.pending + chunk.toString('latin1')).split('\n');
      this.pending = lines.pop()!;
      for (const line of lines) this.read(line);
    });
  }

  /** Resolves when `mark` has been written after everything before it. */
  seen(mark: string): Promise<void> {
    return new Promise((resolve) => this.marks.set(mark, resolve));
  }

  private read(line: string): void {
    const nvp = /pause=([\d.]+) .* gc=(\w+) .* allocated=(\d+) promoted=(\d+) /.exec(line);
    if (nvp) {
      // V8 prints the difference as an unsigned size_t: a collection right after another can find -2 KB.
      const allocated = Number(BigInt.asIntN(64, BigInt(nvp[3])));
      this.collections.push({ at: Date.now(), kind: nvp[2], pauseMs: Number(nvp[1]), allocated, promoted: Number(nvp[4]) });
    }
    const mark = /^alloc-bench-mark (\d+)$/.exec(line)?.[1];
    if (mark) this.marks.get(mark)?.();
  }
}
