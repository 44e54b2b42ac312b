// `npm run lint` (and so `npm test`): typescript-eslint's recommended rules, Prettier owns the layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    files: ['src/**/*.ts'],
    ignores: ['src/database/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message: 'SQL runs through Sql (src/database/sql.ts), in a repository.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@nestjs/typeorm', importNames: ['InjectDataSource'], message: 'Read and write through a repository and Sql.' }],
        },
      ],
    },
  },
  {
    // Tests read JSON documents and responses whose shape they are asserting.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
