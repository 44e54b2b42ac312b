// Builds the package from its one source twice: ES modules in dist/ and CommonJS in dist/cjs/, each
// with its declarations, so that `import` and `require` both get code and types of their own format.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// A file since removed must not ship from an earlier build.
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], { stdio: 'inherit' });
// The package is "type": "module"; this nearer package.json makes dist/cjs/*.js and *.d.ts CommonJS to Node and TypeScript.
writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');
