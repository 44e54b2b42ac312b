import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * A Jest reporter that keeps each test file's time, in .test-logs/jest-file-times.json, so that
 * `npm test` can end with the slowest files (scripts/test-all.sh prints them).
 */
export default class FileTimes {
  #files = [];

  onTestResult(_test, result) {
    const { start, end } = result.perfStats;
    this.#files.push({ file: relative(process.cwd(), result.testFilePath), seconds: (end - start) / 1000 });
  }

  onRunComplete() {
    mkdirSync('.test-logs', { recursive: true });
    writeFileSync('.test-logs/jest-file-times.json', `${JSON.stringify(this.#files, null, 1)}\n`);
  }
}
