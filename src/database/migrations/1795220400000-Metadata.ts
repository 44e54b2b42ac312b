import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { isMysql } from './portable-columns.js';

/**
 * Metadata on pets and orders (1.5.0): a column of JSON text on each, NULL when none (plain ALTER
 * TABLE, the same on both databases: TypeORM's addColumn would rebuild a SQLite table), and a table
 * of their pairs each, indexed on (name, value, owner) so that a listing filtered by one pair is a
 * keyset page read from that index at any size; its rows go with their owner (ON DELETE CASCADE).
 */
export class Metadata1795220400000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const json = mysql ? 'mediumtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : 'text';
    for (const [owner, table, column] of [
      ['pets', 'pet_metadata', 'pet_id'],
      ['orders', 'order_metadata', 'order_id'],
    ]) {
      await queryRunner.query(`ALTER TABLE ${owner} ADD COLUMN metadata ${json} NULL`);
      await queryRunner.createTable(
        new Table({
          name: table,
          columns: [
            { name: column, type: mysql ? 'bigint' : 'integer', isPrimary: true },
            { name: 'name', type: 'varchar', length: '40', isPrimary: true, ...exact },
            { name: 'value', type: 'varchar', length: '500', ...exact },
          ],
          indices: [{ name: `IDX_${table}_pair`, columnNames: ['name', 'value', column] }],
          foreignKeys: [
            {
              name: `FK_${table}_${column}`,
              columnNames: [column],
              referencedTableName: owner,
              referencedColumnNames: ['id'],
              onDelete: 'CASCADE',
              onUpdate: 'RESTRICT',
            },
          ],
        }),
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [owner, table] of [
      ['orders', 'order_metadata'],
      ['pets', 'pet_metadata'],
    ]) {
      await queryRunner.dropTable(table);
      await queryRunner.query(`ALTER TABLE ${owner} DROP COLUMN metadata`);
    }
  }
}
