/**
 * The API's version, as the document's `info.version` and every event's `apiVersion` say it: 1.0.0
 * was the interface's; each released additive change bumps the minor (the path stays /v1), and
 * contract/ keeps each release's document (CHANGELOG.md says what changed). A constant of the
 * release, not a setting; it lives here, importing nothing, so that what records events need not
 * import the document's builder. Said here only: `npm run openapi` writes it where a copy must be
 * (openapi.json, the SDKs' package versions) and tests fail on a stale copy.
 */
export const API_VERSION = '1.6.0';
