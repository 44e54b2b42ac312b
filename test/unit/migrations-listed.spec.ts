import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { MIGRATIONS } from '../../src/database/data-source-options.js';

const FOLDER = 'src/database/migrations';
/** A migration's file: its timestamp, then its name (TypeORM's `migration:generate` names them so). */
const MIGRATION_FILE = /^(\d{13})-(\w+)\.ts$/;

const migrationFiles = readdirSync(FOLDER)
  .filter((file) => MIGRATION_FILE.test(file))
  .sort();
/** The folder's other modules: a helper, or a migration misnamed, which the first test below still finds. */
const otherFiles = readdirSync(FOLDER).filter((file) => file.endsWith('.ts') && !MIGRATION_FILE.test(file));

/** A class TypeORM would run as a migration: its prototype has `up` and `down`. */
const isMigration = (value: unknown): boolean =>
  typeof value === 'function' && typeof value.prototype?.up === 'function' && typeof value.prototype?.down === 'function';

/** What each migration file exports, the classes TypeORM would run. */
async function exportedMigrations(file: string): Promise<{ file: string; name: string; migration: unknown }[]> {
  const module = (await import(`../../${FOLDER}/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
  return Object.entries(module).map(([name, migration]) => ({ file: `${FOLDER}/${file}`, name, migration }));
}

/**
 * A migration in its folder but not in MIGRATIONS never runs: the service starts on the old schema and
 * fails at its first statement that needs the new one (issue 57). The list is by hand, since the
 * build's ES modules cannot be globbed by TypeORM the way its CommonJS examples do.
 */
describe('MIGRATIONS (src/database/data-source-options.ts)', () => {
  it('names every migration of src/database/migrations', async () => {
    const missing: string[] = [];
    for (const file of [...migrationFiles, ...otherFiles]) {
      for (const { file: path, name, migration } of await exportedMigrations(file)) {
        if (!MIGRATION_FILE.test(file) && isMigration(migration)) {
          missing.push(`${name} (${path}) is a migration in a file not named <timestamp>-<Name>.ts: rename it, then list it in MIGRATIONS`);
        } else if (MIGRATION_FILE.test(file) && !MIGRATIONS.includes(migration as (typeof MIGRATIONS)[number])) {
          missing.push(
            `${name} (${path}) is not in MIGRATIONS: import it in src/database/data-source-options.ts and add it to the list, after the migrations older than it`,
          );
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists them in the order of their timestamps, one class a file, each named after its file', async () => {
    const expected: string[] = [];
    for (const file of migrationFiles) {
      const [, timestamp, name] = MIGRATION_FILE.exec(file) ?? [];
      const exported = await exportedMigrations(file);
      expect({ file, classes: exported.map((each) => each.name) }).toEqual({ file, classes: [`${name}${timestamp}`] });
      expected.push(`${name}${timestamp}`);
    }
    expect(MIGRATIONS.map((migration) => migration.name)).toEqual(expected);
  });
});

/**
 * On SQLite, TypeORM's addColumn/addColumns rebuilds the table (a new one, every row copied, the old
 * one dropped): a column added to the pets or the request log would copy every row at start.
 * DEVELOPING.md, Migrations: a plain `ALTER TABLE … ADD COLUMN`. These three shipped before that
 * rule, on tables of a few rows (keys, webhook endpoints); what they made is released, so they stay.
 */
const SHIPPED_WITH_ADD_COLUMN = new Set([
  '1795219600000-AddApiKeyScopes.ts',
  '1795219700000-AddApiKeyExpiry.ts',
  '1795220650000-WebhookEndpointMakers.ts',
]);

describe('the migrations of src/database/migrations', () => {
  it('add a column with a plain ALTER TABLE, never TypeORM’s addColumn, which rebuilds a SQLite table', () => {
    const rebuilding = migrationFiles
      .filter((file) => !SHIPPED_WITH_ADD_COLUMN.has(file) && /\baddColumns?\(/.test(readFileSync(`${FOLDER}/${file}`, 'utf8')))
      .map(
        (file) =>
          `${FOLDER}/${file} calls addColumn: write queryRunner.query('ALTER TABLE … ADD COLUMN …') instead, the column's SQL for each database, as 1795220800000-RequestLogCount.ts does (DEVELOPING.md, Migrations)`,
      );
    expect(rebuilding).toEqual([]);
  });
});
