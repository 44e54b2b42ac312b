// `npm run lint` (and so `npm test`): typescript-eslint's recommended rules, Prettier owns the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SQL_OUTSIDE_SQL = {
  selector: "CallExpression[callee.property.name='query']",
  message: 'SQL runs through Sql (src/database/sql.ts), in a repository.',
};
const UNVALIDATED = {
  name: '@nestjs/common',
  importNames: ['Body', 'Query'],
  message: 'Take a body or query string validated: @ValidBody() or @ValidQuery() (src/validation/validated.ts).',
};
const NO_DATA_SOURCE = {
  name: '@nestjs/typeorm',
  importNames: ['InjectDataSource'],
  message: 'Read and write through a repository and Sql.',
};

/** The reaches inside a library that src/platform/ holds (STYLE.md, the fourth review; the before-stop hook's list). */
const INSIDE = 'inside a library: use its public face, or reach it from src/platform/ with a contract test pinned to its version';
const LIBRARY_INTERNALS = [
  'MemberExpression[property.name=/^_(allConnections|freeConnections|connectionQueue|httpMessage)$/]',
  "MemberExpression[object.name='pino'][property.name='symbols']",
  "MemberExpression[object.property.name='router'][property.name='stack']",
  "Literal[value='trust proxy fn']",
  'MemberExpression[property.name=/^(supportedDataTypes|databaseConnection)$/]',
  'AssignmentExpression > MemberExpression.left[property.name=/^(getConnection|end|closeIdleConnections|getTargetValidationMetadatas|groupByPropertyName)$/]',
  "MethodDefinition[override=true][key.name='reply']",
].map((selector) => ({ selector, message: `Reaches ${INSIDE}.` }));

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'data/', '.node/', '.test-logs/', 'clients/typescript/src/openapi.ts', 'clients/typescript/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Unused arguments keep a signature readable (Nest interfaces); a leading _ says it is on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // One data path (docs/ARCHITECTURE.md): statements run through database/'s Sql, from repositories.
    // Libraries through their public faces: the reaches inside them live in src/platform/ alone.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/platform/**'],
    rules: {
      'no-restricted-syntax': ['error', SQL_OUTSIDE_SQL, ...LIBRARY_INTERNALS],
      'no-restricted-imports': ['error', { paths: [NO_DATA_SOURCE, UNVALIDATED] }],
    },
  },
  { files: ['src/validation/validated.ts'], rules: { 'no-restricted-imports': ['error', { paths: [NO_DATA_SOURCE] }] } },
  { files: ['src/database/**/*.ts'], rules: { 'no-restricted-syntax': ['error', ...LIBRARY_INTERNALS] } },
  {
    files: ['src/platform/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', SQL_OUTSIDE_SQL], 'no-restricted-imports': ['error', { paths: [NO_DATA_SOURCE] }] },
  },
  {
    // Tests read JSON documents and responses whose shape they are asserting.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
