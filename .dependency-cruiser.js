// `npm run lint` (and so `npm test`): no import cycle in src/, between files or between folders.
// docs/ARCHITECTURE.md draws the folders' layers: each imports only those below it.

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment:
        'A folder imports one that (directly or through others) imports it back. Move what both need below both ' +
        '(docs/ARCHITECTURE.md: its layers), or hand it in from above.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'A file imports one that (directly or through others) imports it back.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    // The two below keep the folder check whole. A folder's cycles are found between the folders
    // imported, so an import must land on a folder that shows all it imports: a top-level one.
    {
      name: 'no-import-of-the-process',
      severity: 'error',
      comment: 'Only the process (src/*.ts and cli/) imports the files at the top of src/: they import every folder.',
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/' },
      to: { path: '^src/[^/]+[.]ts$' },
    },
    {
      name: 'no-import-of-another-folders-subfolder',
      severity: 'error',
      comment: "A subfolder (dto/, migrations/) is its folder's own: others import the folder's top-level files.",
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/[^/]+/', pathNot: '^src/$1/' },
    },
    {
      name: 'platform-is-the-lowest-layer',
      severity: 'error',
      comment:
        'platform/ holds the few reaches inside a library (STYLE.md, the fourth review): it imports no folder of ours ' +
        'but errors/ and config/, so that every layer can use it and an upgrade is checked in one place.',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: ['^src/platform/', '^src/errors/', '^src/config/'] },
    },
    {
      name: 'sql-from-repositories',
      severity: 'error',
      comment:
        'One data path: statements are written out in repositories and run by Sql. Besides them only the ' +
        "process (cli/), the key issuer (which hands a repository's transaction on) and the metrics (the pool " +
        'in use) know Sql; a statement as a value (database/statement.ts) goes anywhere.',
      from: {
        path: '^src/',
        pathNot: [
          '^src/database/',
          '[.]repository[.]ts$',
          '^src/cli/',
          '^src/events/outbox[.]ts$',
          '^src/auth/api-key-issuer[.]ts$',
          '^src/metrics/',
        ],
      },
      to: { path: '^src/database/sql[.]ts$' },
    },
    {
      name: 'no-unresolved-import',
      severity: 'error',
      comment: 'An import the check cannot follow would hide the cycles through it.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Resolves the sources' `./x.js` imports to their .ts files, as tsc does (nodenext).
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a folder that needs another's types depends on it all the same.
    tsPreCompilationDeps: true,
  },
};
