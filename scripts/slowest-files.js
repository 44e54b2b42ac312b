import { existsSync, readFileSync } from 'node:fs';

/**
 * `node scripts/slowest-files.js TIER FILE`: the ten slowest test files of a tier, from Jest's
 * times (scripts/jest-file-times.js, with each file's processor time where it was measured) or
 * pytest's JUnit XML (its cases' times added up by file).
 */
const [tier, path] = process.argv.slice(2);
if (!existsSync(path)) {
  console.log(`  ${tier}: no times (the tier did not finish)`);
  process.exit(0);
}
const text = readFileSync(path, 'utf8');
const seconds = new Map();
const cpu = new Map();
if (path.endsWith('.json')) {
  for (const { file, seconds: took, cpu: processor } of JSON.parse(text)) {
    seconds.set(file, took);
    if (processor !== undefined) cpu.set(file, processor);
  }
} else {
  for (const [, file, took] of text.matchAll(/<testcase[^>]*?\sfile="([^"]+)"[^>]*?\stime="([\d.]+)"/g)) {
    seconds.set(file, (seconds.get(file) ?? 0) + Number(took));
  }
}
const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 10);
const sum = (values) => [...values].reduce((total, value) => total + value, 0);
const processor = cpu.size > 0 ? `; ${sum(cpu.values()).toFixed(0)} s of processor time in all` : '';
console.log(
  `  ${tier}, its ${slowest.length} slowest files (of ${seconds.size}, ${sum(seconds.values()).toFixed(0)} s in all${processor}):`,
);
for (const [file, took] of slowest) {
  const used = cpu.has(file) ? ` (processor ${cpu.get(file).toFixed(1).padStart(5)} s)` : '';
  console.log(`    ${took.toFixed(1).padStart(7)} s${used}  ${file}`);
}
