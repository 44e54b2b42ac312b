import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { DEFAULT_BASE_URL } from '../../clients/typescript/src/client.js';
import { CLIENT_VERSION } from '../../clients/typescript/src/transport.js';

const document = JSON.parse(readFileSync('openapi.json', 'utf8'));
const manifest = JSON.parse(readFileSync('clients/typescript/package.json', 'utf8'));

describe('the TypeScript SDK against the committed document', () => {
  it('calls the document’s first server when given no base URL', () => {
    expect(DEFAULT_BASE_URL).toBe(document.servers[0].url);
  });

  it('is versioned as the API it was made for, in its package and in its User-Agent', () => {
    expect(manifest.version).toBe(document.info.version);
    expect(CLIENT_VERSION).toBe(document.info.version);
  });

  it('depends on nothing at run time', () => {
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
