/**
 * Writes the SDK's clients/typescript/src/error-codes.ts from openapi.json: the codes each HTTP
 * status carries, as the Error schema's `x-codes-by-status` lists them (openapi-typescript leaves
 * extensions out). `npm run openapi` runs it; a test fails when the committed file differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export const SDK_ERROR_CODES_FILE = 'clients/typescript/src/error-codes.ts';

interface DocumentWithErrorCodes {
  components: { schemas: { Error: { 'x-codes-by-status'?: Record<string, string[]> } } };
}

/** The module's text for a document. */
export function sdkErrorCodesModule(document: DocumentWithErrorCodes): string {
  const byStatus = document.components.schemas.Error['x-codes-by-status'];
  if (!byStatus) throw new Error('the document has no x-codes-by-status on its Error schema');
  const entries = Object.entries(byStatus).map(([status, codes]) => {
    const quoted = codes.map((code) => `'${code}'`);
    const line = `  ${status}: [${quoted.join(', ')}],`;
    // As Prettier writes it (printWidth 140), so that the lint's check passes the file as written.
    return line.length <= 140 ? line : [`  ${status}: [`, ...quoted.map((code) => `    ${code},`), '  ],'].join('\n');
  });
  return [
    "// Written by `npm run openapi` from openapi.json (the Error schema's x-codes-by-status): do not edit.",
    '',
    '/** The codes an error answer of each HTTP status carries, as the document lists them. */',
    'export const ERROR_CODES_BY_STATUS = {',
    ...entries,
    '} as const;',
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const document = JSON.parse(await readFile('openapi.json', 'utf8')) as DocumentWithErrorCodes;
  await writeFile(SDK_ERROR_CODES_FILE, sdkErrorCodesModule(document));
  process.stderr.write(`wrote ${SDK_ERROR_CODES_FILE}\n`);
}
