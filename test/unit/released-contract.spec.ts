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
const DOCUMENT = read('openapi.json');
/** The releases the document differs from: it is the last one byte for byte while its version is (the first test), and a document breaks no client of itself. */
const DIFFERING = RELEASES.filter((released) => read(released) !== DOCUMENT);
/** What openapi-diff finds going from the `source` document to `destination` (each its text and a name for its messages). */
const diff = (source: [string, string], destination: [string, string]) =>
  openapiDiff.diffSpecs({
    sourceSpec: { content: source[0], location: source[1], format: 'openapi3' },
    destinationSpec: { content: destination[0], location: destination[1], format: 'openapi3' },
  });

describe('the document against the released ones', () => {
  it('is the last release when its version is, byte for byte (a release is kept as it shipped)', () => {
    const { version } = JSON.parse(DOCUMENT).info;
    const kept = `contract/openapi-${version}.json`;
    if (RELEASES.includes(kept)) expect(DOCUMENT).toBe(read(kept));
    else expect(version).not.toBe(JSON.parse(read(LAST)).info.version);
  });

  it.each(DIFFERING)('breaks no client of %s: nothing removed, no request narrowed, no response widened', async (released) => {
    const outcome = await diff([read(released), released], [DOCUMENT, 'openapi.json']);
    const breaking = outcome.breakingDifferencesFound
      ? outcome.breakingDifferences.map(({ code, sourceSpecEntityDetails }) => [code, sourceSpecEntityDetails[0]?.location])
      : [];
    expect(breaking).toEqual([]);
  });

  // On the two paths it changes (the diff of the whole document takes seconds): what the check must see is the same.
  it('would catch a removed operation and a request body that asks for more', async () => {
    const source = JSON.parse(read(LAST));
    source.paths = { '/pets': source.paths['/pets'], '/store/inventory': source.paths['/store/inventory'] };
    const changed = structuredClone(source);
    delete changed.paths['/store/inventory'];
    changed.components.schemas.NewPet.required.push('status');
    const outcome = await diff([JSON.stringify(source), 'released.json'], [JSON.stringify(changed), 'changed.json']);
    expect(outcome.breakingDifferencesFound).toBe(true);
    const codes = outcome.breakingDifferencesFound ? outcome.breakingDifferences.map(({ code }) => code) : [];
    expect(codes).toEqual(expect.arrayContaining(['path.remove', 'request.body.scope.remove']));
  });
});
