/**
 * Writes the TypeScript SDK's version from API_VERSION (src/config/api-version.ts): its package.json's
 * `version` and clients/typescript/src/version.ts, which its User-Agent sends, and the file names of
 * the packed SDKs the vendor/ recipe gives (docs/INTEGRATING.md, both READMEs). The SDK imports
 * nothing of src/, so it carries the number; `npm run openapi` runs this, and tests fail when one differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { API_VERSION } from '../src/config/api-version.js';

export const SDK_VERSION_FILE = 'clients/typescript/src/version.ts';
export const SDK_MANIFEST_FILE = 'clients/typescript/package.json';
/** The documents whose vendor/ recipe names the packed SDKs' files (test/e2e/sdk-vendor.e2e-spec.ts runs it). */
export const VENDOR_RECIPE_FILES = ['docs/INTEGRATING.md', 'clients/typescript/README.md', 'clients/python/README.md'];

/** A document's text with the packed SDKs' file names (`petstore-client-X.Y.Z.tgz`, `petstore-X.Y.Z…`) at `version`. */
export function withPackageVersion(text: string, version: string): string {
  return text.replace(/\b(petstore(?:-client)?-)\d+\.\d+\.\d+(?=\.tgz|\.tar\.gz|-py3-none-any\.whl)/g, `$1${version}`);
}

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
  for (const file of VENDOR_RECIPE_FILES) await writeFile(file, withPackageVersion(await readFile(file, 'utf8'), API_VERSION));
  process.stderr.write(`wrote ${SDK_VERSION_FILE} and the version of ${SDK_MANIFEST_FILE}\n`);
}
