import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { TestEnvironment } from 'jest-environment-node';

/** User and system time of this process and of the processes it started and reaped, in seconds; undefined off Linux. */
function processorSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // utime, stime, cutime and cstime: fields 14 to 17 of proc(5), in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Jest's Node environment, keeping the processor time each test file took from its set-up to its
 * last afterAll: its worker's own and that of the processes it started and reaped (the service,
 * the CLIs, tsc, Chromium). With several workers a file's wall time says as much about its
 * neighbours as about itself; processor time is what moving a check to a faster tier saves. One
 * line per file in .test-logs/jest-file-cpu.jsonl, which scripts/jest-file-times.js reports.
 */
export default class TimedEnvironment extends TestEnvironment {
  #file;
  #started;

  constructor(config, context) {
    super(config, context);
    this.#file = relative(config.globalConfig.rootDir, context.testPath);
  }

  async setup() {
    this.#started = processorSeconds();
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const ended = processorSeconds();
    if (this.#started === undefined || ended === undefined) return;
    mkdirSync('.test-logs', { recursive: true });
    appendFileSync('.test-logs/jest-file-cpu.jsonl', `${JSON.stringify({ file: this.#file, cpu: ended - this.#started })}\n`);
  }
}
