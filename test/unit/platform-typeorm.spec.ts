import { describe, expect, it } from '@jest/globals';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { acceptColumnType } from '../../src/platform/typeorm-column-types.js';
import { installedVersion } from './support/installed-version.js';

@Entity()
class Note {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'mediumtext' })
  text!: string;
}

const onSqlite = () => new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Note], synchronize: true });

/**
 * What src/platform/typeorm-column-types.ts assumes of TypeORM: the driver's list of supported types
 * decides which column types an entity may have, and a column of a type added to it works. A new
 * version may decide otherwise: check, then move the pin.
 */
describe('TypeORM, as src/platform/typeorm-column-types.ts uses it', () => {
  it('is the version acceptColumnType was written for', () => {
    expect(installedVersion('typeorm')).toBe('1.1.1');
  });

  it('refuses a MEDIUMTEXT column on SQLite by its list of types', async () => {
    await expect(onSqlite().initialize()).rejects.toThrow(/mediumtext/);
  });

  it('builds the entity once the list has the type, and stores and reads its text', async () => {
    const dataSource = onSqlite();
    acceptColumnType(dataSource, 'mediumtext');
    await dataSource.initialize();
    try {
      const text = 'x'.repeat(70_000);
      await dataSource.getRepository(Note).save({ text });
      expect((await dataSource.getRepository(Note).find()).map((note) => note.text)).toEqual([text]);
    } finally {
      await dataSource.destroy();
    }
  });
});
