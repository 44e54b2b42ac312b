import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import openapiDiff from 'openapi-diff';

/** The document of the last release, kept as it shipped: clients were generated from it. */
const RELEASED = 'contract/openapi-1.0.0.json';

const read = (path: string) => readFileSync(path, 'utf8');
const diff = (destination: string, location = 'openapi.json') =>
  openapiDiff.diffSpecs({
    sourceSpec: { content: read(RELEASED), location: RELEASED, format: 'openapi3' },
    destinationSpec: { content: destination, location, format: 'openapi3' },
  });

describe('the document against the last released one', () => {
  it('breaks no client of the release: nothing removed, no request narrowed, no response widened', async () => {
    const outcome = await diff(read('openapi.json'));
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
