import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const CPU_LOG = '.test-logs/jest-file-cpu.jsonl';

/**
 * A Jest reporter that keeps each test file's time, in .test-logs/jest-file-times.json, so that
 * `npm test` can end with the slowest files (scripts/test-all.sh prints them): its wall time, and
 * the processor time scripts/jest-environment.js measured in its worker (where it could).
 */
export default class FileTimes {
  #files = [];

  #startedAt = Date.now();

  onRunStart() {
    this.#startedAt = Date.now();
    rmSync(CPU_LOG, { force: true });
  }

  onTestResult(_test, result) {
    const { start, end } = result.perfStats;
    // `from` and `to`: seconds since the run began, to see how busy the workers were along the run.
    const since = (time) => Number(((time - this.#startedAt) / 1000).toFixed(1));
    this.#files.push({
      file: relative(process.cwd(), result.testFilePath),
      seconds: (end - start) / 1000,
      from: since(start),
      to: since(end),
    });
  }

  onRunComplete() {
    const cpu = new Map();
    if (existsSync(CPU_LOG)) {
      for (const line of readFileSync(CPU_LOG, 'utf8').split('\n').filter(Boolean)) {
        const { file, cpu: seconds } = JSON.parse(line);
        cpu.set(file, seconds);
      }
    }
    const files = this.#files.map((entry) => (cpu.has(entry.file) ? { ...entry, cpu: Number(cpu.get(entry.file).toFixed(2)) } : entry));
    mkdirSync('.test-logs', { recursive: true });
    writeFileSync('.test-logs/jest-file-times.json', `${JSON.stringify(files, null, 1)}\n`);
  }
}
