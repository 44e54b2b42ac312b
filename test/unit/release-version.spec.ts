import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { lockWithVersion, SERVICE_LOCK_FILE, SERVICE_MANIFEST_FILE, sdkManifest } from '../../scripts/sdk-version.js';
import { API_VERSION } from '../../src/config/api-version.js';

describe('the service’s release number', () => {
  it('is the API’s (API_VERSION) in the service’s package.json and its lock, as `npm run openapi` writes them', () => {
    const manifest = readFileSync(SERVICE_MANIFEST_FILE, 'utf8');
    const lock = readFileSync(SERVICE_LOCK_FILE, 'utf8');
    expect(JSON.parse(manifest).version).toBe(API_VERSION);
    expect(JSON.parse(lock).packages[''].version).toBe(API_VERSION);
    expect({ manifest, lock }).toEqual({ manifest: sdkManifest(manifest, API_VERSION), lock: lockWithVersion(lock, API_VERSION) });
  });
});
