import { existsSync, readFileSync } from 'node:fs';

/**
 * `node scripts/slowest-files.js TIER FILE`: the ten slowest test files of a tier, from Jest's
 * times (scripts/jest-file-times.js) or pytest's JUnit XML (its cases' times added up by file).
 */
const [tier, path] = process.argv.slice(2);
if (!existsSync(path)) {
  console.log(`  ${tier}: no times (the tier did not finish)`);
  process.exit(0);
}
const text = readFileSync(path, 'utf8');
const seconds = new Map();
if (path.endsWith('.json')) {
  for (const { file, seconds: took } of JSON.parse(text)) seconds.set(file, took);
} else {
  for (const [, file, took] of text.matchAll(/<testcase[^>]*?\sfile="([^"]+)"[^>]*?\stime="([\d.]+)"/g)) {
    seconds.set(file, (seconds.get(file) ?? 0) + Number(took));
  }
}
const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`  ${tier}, its ${slowest.length} slowest files:`);
for (const [file, took] of slowest) console.log(`    ${took.toFixed(1).padStart(7)} s  ${file}`);
