/**
 * Writes the SDK's clients/typescript/src/added-fields.ts from openapi.json and the released documents
 * in contract/: each required field that a release of the same major version did not have (Pet's and
 * Order's `metadata`, 1.5.0), with the value an answer of an older server, or an event recorded before
 * (events are stored as they were), is read with: `{}` for a map, `[]` for a list, else the schema's
 * `default`. And the schema of each webhook event's `data.object`, by its `type`. The Python client's
 * generator (clients/python/scripts/generate.py) applies the same rule. `npm run openapi` runs it; a
 * test fails when the committed file differs.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export const SDK_ADDED_FIELDS_FILE = 'clients/typescript/src/added-fields.ts';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
  nullable?: boolean;
  $ref?: string;
}

interface Document {
  info: { version: string };
  paths: Record<string, Record<string, { callbacks?: Record<string, Record<string, Record<string, Callback>>> }>>;
  components: { schemas: Record<string, Schema> };
}

interface Callback {
  requestBody: { content: { 'application/json': { schema: { discriminator?: { mapping: Record<string, string> } } } } };
}

const versionOf = (document: Document) => document.info.version.split('.').map(Number);
const compareVersions = (a: Document, b: Document) => versionOf(a).reduce((order, part, i) => order || part - versionOf(b)[i], 0);
const nameOf = (reference: string) => reference.slice(reference.lastIndexOf('/') + 1);

/** The documents of the releases of `document`'s major version in `folder`, oldest first. */
export async function releasedDocuments(document: Document, folder = 'contract'): Promise<Document[]> {
  const files = (await readdir(folder)).filter((file) => /^openapi-\d+\.\d+\.\d+\.json$/.test(file));
  const releases = await Promise.all(files.map(async (file) => JSON.parse(await readFile(`${folder}/${file}`, 'utf8')) as Document));
  return releases.filter((release) => versionOf(release)[0] === versionOf(document)[0]).sort(compareVersions);
}

/** The module's text for a document and the releases before it. */
export function sdkAddedFieldsModule(document: Document, releases: readonly Document[]): string {
  const schemas = document.components.schemas;
  const added: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const fields = (schema.required ?? []).flatMap((field) => {
      const lacking = releases.filter(
        (release) => release.components.schemas[name] && !release.components.schemas[name].properties?.[field],
      );
      if (lacking.length === 0) return [];
      const since = releases.find((release) => compareVersions(release, lacking.at(-1)!) > 0)?.info.version ?? document.info.version;
      return [
        `    /** Since ${since}. */\n    ${field}: () => ${absentValue(schema.properties![field], `${name}.${field}`, since, schemas)},`,
      ];
    });
    if (fields.length > 0) added.push(`  ${name}: {\n${fields.join('\n')}\n  },`);
  }
  const events = Object.entries(webhookEvents(document)).flatMap(([type, event]) => {
    const object = schemas[event].properties?.data?.properties?.object?.$ref;
    return object ? [`  '${type}': '${nameOf(object)}',`] : [];
  });
  return [
    '// Written by `npm run openapi` from openapi.json and contract/ (scripts/sdk-added-fields.ts): do not edit.',
    '',
    '/**',
    ' * The required fields of each schema that a release of this major version did not have, with what',
    ' * an answer of an older server, or an event recorded before (stored as it was), is read as.',
    ' */',
    'export const ADDED_FIELDS = {',
    ...added,
    '} as const;',
    '',
    "/** The schema of a webhook event's `data.object`, by the event's `type`. */",
    'export const EVENT_OBJECTS: Readonly<Record<string, string>> = {',
    ...events,
    '};',
    '',
  ].join('\n');
}

/**
 * The value a field added in `since` is read as where the wire lacks it, as TypeScript: null when it
 * may be null, else `{}`, `[]` or its default. The Python client's generator has the same rule
 * (`absent_value`); test/unit/typescript-sdk.spec.ts holds the two together.
 */
function absentValue(schema: Schema, what: string, since: string, schemas: Record<string, Schema>): string {
  const resolved = schema.$ref ? schemas[nameOf(schema.$ref)] : schema;
  if (schema.nullable || resolved.nullable) return 'null';
  if (resolved.type === 'object') return '({})';
  if (resolved.type === 'array') return '[]';
  if (resolved.default !== undefined) return JSON.stringify(resolved.default);
  throw new Error(
    `${what} is required and added in ${since}: an older answer lacks it, and it has no value to be read as. ` +
      'Declare it in its ResourceShape (pet-fields.ts, order-fields.ts) as field.clearable or field.omittable (an older answer reads as null) ' +
      'or field.defaulted(VALUE) (it reads as VALUE); a field only the service gives (field.assigned) takes `default` in its ApiProperty ' +
      '(livemode: true, what a service before it meant). Then npm run openapi again',
  );
}

/** The event schema of each webhook event type: the discriminator of the callbacks' bodies. */
function webhookEvents(document: Document): Record<string, string> {
  const events: Record<string, string> = {};
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item))
      for (const callback of Object.values(operation.callbacks ?? {}))
        for (const expression of Object.values(callback))
          for (const callbackOperation of Object.values(expression))
            for (const [type, reference] of Object.entries(
              callbackOperation.requestBody.content['application/json'].schema.discriminator?.mapping ?? {},
            ))
              events[type] = nameOf(reference);
  return events;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const document = JSON.parse(await readFile('openapi.json', 'utf8')) as Document;
  await writeFile(SDK_ADDED_FIELDS_FILE, sdkAddedFieldsModule(document, await releasedDocuments(document)));
  process.stderr.write(`wrote ${SDK_ADDED_FIELDS_FILE}\n`);
}
