import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import openapiDiff from 'openapi-diff';

/** The document of every release, kept as it shipped: clients were generated from each. */
const RELEASES = readdirSync('contract')
  .filter((file) => /^openapi-\d+\.\d+\.\d+\.json$/.test(file))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  .map((file) => `contract/${file}`);
const LAST = RELEASES.at(-1)!;

const read = (path: string) => readFileSync(path, 'utf8');
const diff = (destination: string, location = 'openapi.json', released = LAST) =>
  openapiDiff.diffSpecs({
    sourceSpec: { content: read(released), location: released, format: 'openapi3' },
    destinationSpec: { content: destination, location, format: 'openapi3' },
  });

describe('the document against the released ones', () => {
  it('is the last release when its version is, byte for byte (a release is kept as it shipped)', () => {
    const { version } = JSON.parse(read('openapi.json')).info;
    const kept = `contract/openapi-${version}.json`;
    if (RELEASES.includes(kept)) expect(read('openapi.json')).toBe(read(kept));
    else expect(version).not.toBe(JSON.parse(read(LAST)).info.version);
  });

  it.each(RELEASES)('breaks no client of %s: nothing removed, no request narrowed, no response widened', async (released) => {
    const outcome = await diff(read('openapi.json'), 'openapi.json', released);
    const breaking = outcome.breakingDifferencesFound
      ? outcome.breakingDifferences.map(({ code, sourceSpecEntityDetails }) => [code, sourceSpecEntityDetails[0]?.location])
      : [];
    expect(breaking).toEqual([]);
  });

  it('would catch a removed operation and a request body that asks for more', async () => {
    const changed = JSON.parse(read('openapi.json'));
    delete changed.paths['/store/inventory'];
    changed.components.schemas.NewPet.required.push('status');
    const outcome = await diff(JSON.stringify(changed), 'changed.json');
    expect(outcome.breakingDifferencesFound).toBe(true);
    const codes = outcome.breakingDifferencesFound ? outcome.breakingDifferences.map(({ code }) => code) : [];
    expect(codes).toEqual(expect.arrayContaining(['path.remove', 'request.body.scope.remove']));
  });
});
