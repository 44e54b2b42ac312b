import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { DEFAULT_BASE_URL } from '../../clients/typescript/src/client.js';
import { NotFoundError } from '../../clients/typescript/src/errors.js';
import { logLevelOf } from '../../clients/typescript/src/logging.js';
import { withHeaders } from '../../clients/typescript/src/transport.js';
import { ADDED_FIELDS } from '../../clients/typescript/src/added-fields.js';
import { CLIENT_VERSION } from '../../clients/typescript/src/version.js';
import { releasedDocuments, SDK_ADDED_FIELDS_FILE, sdkAddedFieldsModule } from '../../scripts/sdk-added-fields.js';
import { SDK_VERSION_FILE, sdkVersionModule } from '../../scripts/sdk-version.js';
import { API_VERSION } from '../../src/config/api-version.js';

const document = JSON.parse(readFileSync('openapi.json', 'utf8'));
const manifest = JSON.parse(readFileSync('clients/typescript/package.json', 'utf8'));

describe('the TypeScript SDK against the committed document', () => {
  it('calls the document’s first server when given no base URL', () => {
    expect(DEFAULT_BASE_URL).toBe(document.servers[0].url);
  });

  it('is versioned as the API it was made for (API_VERSION), in its package and in its User-Agent, as `npm run openapi` writes', () => {
    const versions = { document: document.info.version, package: manifest.version, userAgent: CLIENT_VERSION };
    expect(versions).toEqual({ document: API_VERSION, package: API_VERSION, userAgent: API_VERSION });
    expect(readFileSync(SDK_VERSION_FILE, 'utf8')).toBe(sdkVersionModule(API_VERSION));
  });

  it('reads every required field no release of this major version had, as `npm run openapi` writes them: metadata (1.5.0), a request log entry’s count (1.5.1), and any added since', async () => {
    const releases = await releasedDocuments(document);
    const written = sdkAddedFieldsModule(document, releases);
    expect(
      readFileSync(SDK_ADDED_FIELDS_FILE, 'utf8') === written || `${SDK_ADDED_FIELDS_FILE} is not as written: run npm run openapi`,
    ).toBe(true);
    // Derived from the document, so that a field added to it adds to this list without an edit here.
    const schemas = Object.entries(document.components.schemas as Record<string, { required?: string[] }>);
    const added = Object.fromEntries(
      schemas.flatMap(([name, schema]) => {
        const fields = (schema.required ?? []).filter((field) =>
          releases.some((release) => release.components.schemas[name] && !release.components.schemas[name].properties?.[field]),
        );
        return fields.length > 0 ? [[name, Object.fromEntries(fields.map((field) => [field, expect.any(Function)]))]] : [];
      }),
    );
    expect(ADDED_FIELDS).toEqual(added);
    expect(ADDED_FIELDS).toMatchObject({ Pet: { metadata: expect.any(Function) }, RequestLogEntry: { count: expect.any(Function) } });
    expect(ADDED_FIELDS.Pet.metadata()).toEqual({});
    expect(ADDED_FIELDS.Pet.metadata()).not.toBe(ADDED_FIELDS.Pet.metadata());
    expect(ADDED_FIELDS.RequestLogEntry.count()).toBe(1);
    expect(written).toContain('/** Since 1.5.0. */');
    expect(written).toContain('/** Since 1.5.1. */');
  });

  it('adds to that list a required field no release had, and refuses one it has no value to read as', () => {
    // Made-up versions, so that no release of ours changes what this case reads.
    const released = structuredClone(document);
    released.info.version = '1.90.0';
    const changed = structuredClone(document);
    changed.info.version = '1.91.0';
    changed.components.schemas.Order.properties.noSuchFieldForTests = { type: 'string' };
    changed.components.schemas.Order.required.push('noSuchFieldForTests');
    expect(() => sdkAddedFieldsModule(changed, [released])).toThrow(
      'Order.noSuchFieldForTests is required and added in 1.91.0: an older answer lacks it, and it has no value to be read as',
    );
    changed.components.schemas.Order.properties.noSuchFieldForTests.default = '';
    expect(sdkAddedFieldsModule(changed, [released])).toContain(
      '  Order: {\n    /** Since 1.91.0. */\n    noSuchFieldForTests: () => "",\n  },',
    );
    // Every field a release had is no addition.
    expect(sdkAddedFieldsModule(document, [document])).toContain('export const ADDED_FIELDS = {\n} as const;');
  });

  it('reads an added field that may be null as null where the wire lacks it, as the Python client’s generator does', () => {
    const released = structuredClone(document);
    released.info.version = '1.90.0';
    const changed = structuredClone(document);
    changed.info.version = '1.91.0';
    // A made-up field: no field will ever take its name.
    changed.components.schemas.Pet.properties.noSuchFieldForTests = { type: 'string', nullable: true };
    changed.components.schemas.Pet.required.push('noSuchFieldForTests');
    expect(sdkAddedFieldsModule(changed, [released])).toContain('    noSuchFieldForTests: () => null,');
  });

  it('depends on nothing at run time', () => {
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});

describe('the TypeScript SDK’s options', () => {
  it('logs at the level asked for, else PETSTORE_LOG’s, and nothing for a variable it does not know', () => {
    expect(logLevelOf('info', 'debug')).toBe('info');
    expect([logLevelOf(undefined, 'DEBUG '), logLevelOf(undefined, 'info')]).toEqual(['debug', 'info']);
    expect([logLevelOf(undefined, undefined), logLevelOf(undefined, 'verbose'), logLevelOf(undefined, 'off')]).toEqual([
      'off',
      'off',
      'off',
    ]);
    expect(() => logLevelOf('loud' as never, undefined)).toThrow("logLevel must be 'off', 'info' or 'debug'");
  });

  it('sends a header named again in another case once, with the later value', () => {
    const headers = withHeaders({ Authorization: 'Bearer a', Accept: 'application/json' }, { authorization: 'Bearer b', 'X-Trace': '1' });
    expect(headers).toEqual({ Accept: 'application/json', authorization: 'Bearer b', 'X-Trace': '1' });
  });

  it('shows an error’s status, code and request id when it is printed', () => {
    const error = new NotFoundError('No order has id 7.', { status: 404, code: 'ORDER_NOT_FOUND', requestId: 'req-7' });
    expect(inspect(error)).toMatch(
      /^NotFoundError: No order has id 7\.\n[\s\S]*status: 404,\n\s+code: 'ORDER_NOT_FOUND',\n\s+requestId: 'req-7'/,
    );
  });
});
