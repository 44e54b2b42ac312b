import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, isMysql } from './portable-columns.js';

export class CreateOrders1795219500000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'orders',
        columns: [
          idColumn(queryRunner),
          { name: 'pet_id', type: 'bigint' },
          { name: 'quantity', type: 'int' },
          { name: 'status', type: 'varchar', length: '16' },
          // Milliseconds kept, so a shipDate reads back as it was sent (in UTC).
          { name: 'ship_date', type: 'datetime', precision: isMysql(queryRunner) ? 3 : undefined, isNullable: true },
          { name: 'complete', type: 'boolean' },
        ],
        foreignKeys: [
          {
            name: 'FK_orders_pet_id',
            columnNames: ['pet_id'],
            referencedTableName: 'pets',
            referencedColumnNames: ['id'],
            // A pet with orders is never deleted from under them.
            onDelete: 'RESTRICT',
            onUpdate: 'RESTRICT',
          },
        ],
        indices: [
          // listOrders with a status filter as one keyset range scan, like pets.
          { name: 'IDX_orders_status_id', columnNames: ['status', 'id'] },
          { name: 'IDX_orders_pet_id', columnNames: ['pet_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('orders');
  }
}
