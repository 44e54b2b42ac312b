/**
 * Writes the TypeScript SDK's version from API_VERSION (src/config/api-version.ts): its package.json's
 * `version` and clients/typescript/src/version.ts, which its User-Agent sends. The SDK imports nothing
 * of src/, so it carries the number; `npm run openapi` runs this, and a unit test fails when either differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { API_VERSION } from '../src/config/api-version.js';

export const SDK_VERSION_FILE = 'clients/typescript/src/version.ts';
export const SDK_MANIFEST_FILE = 'clients/typescript/package.json';

/** The text of version.ts for a version. */
export function sdkVersionModule(version: string): string {
  return [
    '// Written by `npm run openapi` from API_VERSION (src/config/api-version.ts): do not edit.',
    '',
    '/** The package’s version: the API version it was made for, as its package.json says too. */',
    `export const CLIENT_VERSION = '${version}';`,
    '',
  ].join('\n');
}

/** The package.json's text with `version`, all else as it was. */
export function sdkManifest(manifest: string, version: string): string {
  return `${JSON.stringify({ ...JSON.parse(manifest), version }, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeFile(SDK_VERSION_FILE, sdkVersionModule(API_VERSION));
  await writeFile(SDK_MANIFEST_FILE, sdkManifest(await readFile(SDK_MANIFEST_FILE, 'utf8'), API_VERSION));
  process.stderr.write(`wrote ${SDK_VERSION_FILE} and the version of ${SDK_MANIFEST_FILE}\n`);
}
