import { describe, expect, it } from '@jest/globals';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options.js';
import { COMPARED_TEXT, EXACT_TEXT, UNICODE_TEXT } from '../../src/database/entity-columns.js';
import { ENTITIES } from '../../src/entities.js';

/** The column types MySQL gives a character set, as TypeORM's drivers name them. */
const TEXT_TYPES = new Set(['varchar', 'char', 'nvarchar', 'nchar', 'text', 'tinytext', 'mediumtext', 'longtext', 'enum', 'set']);
const KINDS = [UNICODE_TEXT, EXACT_TEXT, COMPARED_TEXT].map(({ charset, collation }) => `${charset} ${collation}`);

/**
 * A text column whose entity names no character set is made, by a migration copied from it, in the
 * database's default: latin1 on many a server, where an emoji is refused (issue 57). Each entity's
 * text column states utf8mb4 and one of the three collations; test/e2e/schema.e2e-spec.ts holds the
 * migrations to the entities, on a latin1 database.
 */
describe('text columns (src/database/entity-columns.ts)', () => {
  it('are utf8mb4 in every entity: each spreads UNICODE_TEXT, EXACT_TEXT or COMPARED_TEXT', async () => {
    const dataSource = await createDataSource(buildDataSourceOptions({ kind: 'sqlite', file: ':memory:' }, ENTITIES)).initialize();
    try {
      const text = dataSource.entityMetadatas.flatMap((entity) =>
        entity.columns
          .filter((column) => TEXT_TYPES.has(String(dataSource.driver.normalizeType(column))))
          .map(({ databaseName, charset, collation }) => ({
            column: `${entity.tableName}.${databaseName}`,
            made: charset ? `${charset} ${collation}` : 'no character set',
          })),
      );
      const wrong = text
        .filter(({ made }) => !KINDS.includes(made))
        .map(
          ({ column, made }) =>
            `${column} declares ${made}: spread UNICODE_TEXT (a label), EXACT_TEXT (a document) or COMPARED_TEXT ` +
            "(src/database/entity-columns.ts) in its @Column, and give its migration the same (portable-columns.ts' " +
            'unicodeText, or CHARACTER SET utf8mb4 with exactCollation)',
        );
      expect(wrong).toEqual([]);
      expect(text.length).toBeGreaterThan(40);
    } finally {
      await dataSource.destroy();
    }
  });
});
