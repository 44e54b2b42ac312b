import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version of the package `name` installed for the service: what a contract test of src/platform/
 * compares with the version its piece was written for, so that an upgrade fails that test first.
 */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}
