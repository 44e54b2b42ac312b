// Written by `npm run openapi` from API_VERSION (src/config/api-version.ts): do not edit.

/** The package’s version: the API version it was made for, as its package.json says too. */
export const CLIENT_VERSION = '1.6.0';
