import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource, EntityMetadata, Table } from 'typeorm';
import { loadAppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions, createDataSource } from '../../src/database/data-source-options.js';
import { EXACT_COLLATION } from '../../src/database/entity-columns.js';
import { exactCollation } from '../../src/database/migrations/portable-columns.js';
import { PetsClusteredByEnvironment1795221100000 as PetsClusteredByEnvironment } from '../../src/database/migrations/1795221100000-PetsClusteredByEnvironment.js';
import { ENTITIES } from '../../src/entities.js';
import { createTestDatabase, DATABASE_KINDS, LATIN1, type TestDatabase } from './support/test-database.js';

/**
 * The entities declare the schema the migrations make (docs/ARCHITECTURE.md): on a fresh database,
 * after every migration, each table has its entity and each entity says what its table is. A
 * migration and an entity that part ways fail here.
 */
describe.each(DATABASE_KINDS)('the entities and the migrations on %s', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    // latin1: a column a migration leaves to the database's default is latin1 here, and fails below.
    database = await createTestDatabase(kind, LATIN1());
    const options = buildDataSourceOptions(loadAppConfig({ DATABASE_URL: database.url }).database, ENTITIES);
    dataSource = await createDataSource(options).initialize();
    await dataSource.runMigrations();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** Each entity with its table as TypeORM reads it from the database. */
  const tablesOfEntities = async (): Promise<[EntityMetadata, Table][]> => {
    const queryRunner = dataSource.createQueryRunner();
    try {
      const tables = await queryRunner.getTables(dataSource.entityMetadatas.map(({ tablePath }) => tablePath));
      return dataSource.entityMetadatas.map((entity) => [entity, tables.find(({ name }) => name === entity.tablePath)!]);
    } finally {
      await queryRunner.release();
    }
  };

  it('has an entity for every table but TypeORM’s own, and a table for every entity', async () => {
    const rows: { name: string }[] = await dataSource.query(
      kind === 'mysql'
        ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'
        : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    );
    const tables = rows.map(({ name }) => name).filter((name) => name !== 'migrations');
    expect(tables.sort()).toEqual(dataSource.entityMetadatas.map(({ tableName }) => tableName).sort());
  });

  if (kind === 'mysql') {
    // Pets' primary key on MySQL, (environment, id), is one the entity cannot declare for SQLite too
    // (its migration says why): the schema builder compares the rest with it undone, then it is redone.
    it('leaves TypeORM’s schema builder nothing to change: columns, indexes, unique and foreign keys', async () => {
      const clustering = new PetsClusteredByEnvironment();
      const queryRunner = dataSource.createQueryRunner();
      try {
        await clustering.down(queryRunner);
        const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
        const readings = await mariaDbReadings(dataSource, await tablesOfEntities());
        expect(upQueries.map(({ query }) => query.trim()).filter((query) => !readings.some((reading) => reading(query)))).toEqual([]);
      } finally {
        await clustering.up(queryRunner);
        await queryRunner.release();
      }
    });

    it('keeps pets in the order of (environment, id), with a unique index of the id for the auto-increment and the foreign keys', async () => {
      const indexes: { name: string; columns: string; unique: number }[] = await dataSource.query(
        'SELECT INDEX_NAME AS name, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) AS columns, 1 - MIN(NON_UNIQUE) AS `unique` ' +
          "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'pets' GROUP BY INDEX_NAME ORDER BY INDEX_NAME",
      );
      expect(indexes.map(({ name, columns, unique }) => `${name} (${columns})${Number(unique) ? ' UNIQUE' : ''}`)).toEqual([
        'IDX_pets_environment_status_id (environment,status,id)',
        'PRIMARY (environment,id) UNIQUE',
        `${PetsClusteredByEnvironment.ID_INDEX} (id) UNIQUE`,
      ]);
    });

    // The schema builder compares no character sets: a name column that lost utf8mb4 would lose emoji.
    // The entities name the exact collation as MySQL 8 does; MariaDB's own name for it reads as that.
    it('declares the character set and collation the migrations gave each column', async () => {
      const exact = await exactCollation(dataSource);
      const declared = (await tablesOfEntities()).flatMap(([entity, table]) =>
        storedColumns(entity).map(({ databaseName, charset, collation }) => {
          const column = table.columns.find(({ name }) => name === databaseName)!;
          const made = column.collation === exact ? EXACT_COLLATION : column.collation;
          return { column: `${table.name}.${databaseName}`, entity: [charset, collation], migration: [column.charset, made] };
        }),
      );
      expect(declared.filter(({ entity, migration }) => entity.join() !== migration.join())).toEqual([]);
    });

    // Whatever the database's default (latin1 here), text is Unicode, in one of the collations the
    // entities choose from (src/database/entity-columns.ts), each column its entity's (the test above).
    it('makes every text column utf8mb4, whatever the database’s default', async () => {
      const collations = ['utf8mb4_unicode_ci', 'utf8mb4_bin', await exactCollation(dataSource)];
      const columns: { name: string; charset: string; collation: string }[] = await dataSource.query(
        "SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME) AS name, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation " +
          'FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND CHARACTER_SET_NAME IS NOT NULL ' +
          "AND TABLE_NAME <> 'migrations' ORDER BY name",
      );
      const wrong = columns
        .filter(({ charset, collation }) => charset !== 'utf8mb4' || !collations.includes(collation))
        .map(
          ({ name, charset, collation }) =>
            `${name} is ${charset} ${collation}: its migration must say CHARACTER SET utf8mb4 (portable-columns.ts' unicodeText ` +
            "for a label, or charset: 'utf8mb4' with exactCollation), as its entity's UNICODE_TEXT, EXACT_TEXT or COMPARED_TEXT does",
        );
      expect(wrong).toEqual([]);
      expect(columns.length).toBeGreaterThan(40);
    });
  } else {
    // TypeORM rebuilds a SQLite table for any difference, and the migrations give SQLite its own
    // types (integer for MySQL's bigint ids, text for mediumtext, no datetime precision), so the
    // schema builder's answer is all noise here: names, nullability and keys are compared instead.
    it('declares every column, index, unique and foreign key the migrations made, types aside', async () => {
      for (const [entity, table] of await tablesOfEntities()) expect(shapeOfEntity(entity)).toEqual(shapeOfTable(table));
    });
  }
});

/**
 * The statements TypeORM's `mysql` driver proposes on MariaDB only because of how MariaDB reports
 * what the migrations made, each recognised for one column or key that agrees with its entity in
 * everything else:
 * - a nullable column without a default: MariaDB reports its default as the text `NULL`, which the
 *   `mysql` driver (its `mariadb` one knows better) takes for a default to remove, one `CHANGE` each,
 *   and a DROP INDEX and a CREATE INDEX for each index on such a column that the change would rebuild;
 * - a foreign key whose ON UPDATE the migration left unstated: MariaDB reports RESTRICT, the entity
 *   (like MySQL 8 and SQLite) says NO ACTION, which InnoDB runs alike; a DROP and an ADD each.
 */
async function mariaDbReadings(dataSource: DataSource, tables: [EntityMetadata, Table][]): Promise<((query: string) => boolean)[]> {
  const [{ version }]: { version: string }[] = await dataSource.query('SELECT VERSION() AS version');
  if (!version.includes('MariaDB')) return [];
  return tables.flatMap(([entity, table]) => {
    const nullDefaulted = storedColumns(entity).filter((metadata) => {
      const column = table.columns.find(({ name }) => name === metadata.databaseName);
      if (!column || !metadata.isNullable || metadata.default !== undefined || column.default !== "'NULL'") return false;
      const withoutMariaDbsNull = column.clone();
      withoutMariaDbsNull.default = undefined;
      return dataSource.driver.findChangedColumns([withoutMariaDbsNull], [metadata]).length === 0;
    });
    const rebuiltIndices = entity.indices.filter(
      (index) =>
        index.columns.some((column) => nullDefaulted.includes(column)) &&
        table.indices.some(
          ({ name, columnNames }) =>
            name === index.name && columnNames.join() === index.columns.map((column) => column.databaseName).join(),
        ),
    );
    return [
      ...nullDefaulted.map(
        ({ databaseName }) =>
          (query: string) =>
            query.startsWith(`ALTER TABLE \`${table.name}\` CHANGE \`${databaseName}\` \`${databaseName}\` `),
      ),
      ...rebuiltIndices.flatMap(({ name }) => [
        (query: string) => query === `DROP INDEX \`${name}\` ON \`${table.name}\``,
        (query: string) => query.startsWith(`CREATE INDEX \`${name}\` ON \`${table.name}\` `),
      ]),
      ...entity.foreignKeys
        .filter((metadata) => {
          const key = table.foreignKeys.find(({ name }) => name === metadata.name);
          return (
            key !== undefined &&
            key.onUpdate === 'RESTRICT' &&
            metadata.onUpdate === 'NO ACTION' &&
            shapeOfKey({ ...key, onUpdate: metadata.onUpdate }) === shapeOfKey(metadata)
          );
        })
        .flatMap(({ name }) => [
          (query: string) => query === `ALTER TABLE \`${table.name}\` DROP FOREIGN KEY \`${name}\``,
          (query: string) => query.startsWith(`ALTER TABLE \`${table.name}\` ADD CONSTRAINT \`${name}\` FOREIGN KEY `),
        ]),
    ];
  });
}

interface KeyShape {
  readonly name?: string;
  readonly columnNames: string[];
  readonly referencedTableName?: string;
  readonly referencedTablePath?: string;
  readonly referencedColumnNames: string[];
  readonly onDelete?: string;
  readonly onUpdate?: string;
}

function shapeOfKey(key: KeyShape): string {
  const referenced = key.referencedTableName ?? key.referencedTablePath;
  return `${key.name} (${key.columnNames}) -> ${referenced} (${key.referencedColumnNames}) ON DELETE ${key.onDelete} ON UPDATE ${key.onUpdate}`;
}

/** A table's columns (their names, nullability and primary key), indexes, unique and foreign keys, as its entity declares them. */
function shapeOfEntity(entity: EntityMetadata) {
  const names = (columns: { databaseName: string }[]) => columns.map(({ databaseName }) => databaseName).join(', ');
  return {
    columns: storedColumns(entity)
      .map(({ databaseName, isNullable, isPrimary }) => columnShape(databaseName, isNullable, isPrimary))
      .sort(),
    indices: entity.indices.map(({ name, columns, isUnique }) => `${name} (${names(columns)})${isUnique ? ' UNIQUE' : ''}`).sort(),
    uniques: entity.uniques.map(({ name, columns }) => `${name} (${names(columns)})`).sort(),
    foreignKeys: entity.foreignKeys.map(shapeOfKey).sort(),
  };
}

/** The same, as the database has it. */
function shapeOfTable(table: Table) {
  return {
    columns: table.columns.map(({ name, isNullable, isPrimary }) => columnShape(name, isNullable, isPrimary)).sort(),
    indices: table.indices
      .map(({ name, columnNames, isUnique }) => `${name} (${columnNames.join(', ')})${isUnique ? ' UNIQUE' : ''}`)
      .sort(),
    uniques: table.uniques.map(({ name, columnNames }) => `${name} (${columnNames.join(', ')})`).sort(),
    foreignKeys: table.foreignKeys.map(shapeOfKey).sort(),
  };
}

function columnShape(name: string, isNullable: boolean, isPrimary: boolean): string {
  return `${name}${isNullable ? ' NULL' : ''}${isPrimary ? ' PRIMARY KEY' : ''}`;
}

/** An entity's columns that a table holds: a virtual one (livemode, read as `environment = 0`) is none. */
function storedColumns(entity: EntityMetadata): EntityMetadata['columns'] {
  return entity.columns.filter(({ isVirtualProperty }) => !isVirtualProperty);
}
