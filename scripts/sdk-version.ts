/**
 * Writes the TypeScript SDK's version from API_VERSION (src/config/api-version.ts): its package.json's
 * `version` and clients/typescript/src/version.ts, which its User-Agent sends. The SDK imports
 * nothing of src/, so it carries the number; `npm run openapi` runs this, and tests fail when one differs.
 * The service's own package.json says the release too: what `npm ls` and an SBOM report. No prose
 * carries it (the vendor/ recipe names the packed files with a glob): a version needs no edit of the docs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { API_VERSION } from '../src/config/api-version.js';

export const SDK_VERSION_FILE = 'clients/typescript/src/version.ts';
export const SDK_MANIFEST_FILE = 'clients/typescript/package.json';
/** The service's package.json: its `version` is the release's, the API's. */
export const SERVICE_MANIFEST_FILE = 'package.json';
/** Its lock file names the root package's version twice, as npm writes it. */
export const SERVICE_LOCK_FILE = 'package-lock.json';
/** A package-lock.json's text with the root package's `version` (at the top and in `packages[""]`), all else as it was. */
export function lockWithVersion(lock: string, version: string): string {
  const parsed = JSON.parse(lock) as { packages: Record<string, object> };
  const packages = { ...parsed.packages, '': { ...parsed.packages[''], version } };
  return `${JSON.stringify({ ...parsed, version, packages }, null, 2)}\n`;
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

/** A package.json's text with `version`, all else as it was. */
export function sdkManifest(manifest: string, version: string): string {
  return `${JSON.stringify({ ...JSON.parse(manifest), version }, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeFile(SDK_VERSION_FILE, sdkVersionModule(API_VERSION));
  for (const manifest of [SDK_MANIFEST_FILE, SERVICE_MANIFEST_FILE])
    await writeFile(manifest, sdkManifest(await readFile(manifest, 'utf8'), API_VERSION));
  await writeFile(SERVICE_LOCK_FILE, lockWithVersion(await readFile(SERVICE_LOCK_FILE, 'utf8'), API_VERSION));
  process.stderr.write(
    `wrote ${SDK_VERSION_FILE} and the version of ${SDK_MANIFEST_FILE}, ${SERVICE_MANIFEST_FILE} and ${SERVICE_LOCK_FILE}\n`,
  );
}
