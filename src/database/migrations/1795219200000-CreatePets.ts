import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, unicodeText } from './portable-columns.js';

export class CreatePets1795219200000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'pets',
        columns: [
          idColumn(queryRunner),
          unicodeText(queryRunner, { name: 'name', length: '255' }),
          { name: 'category_id', type: 'bigint' },
          { name: 'status', type: 'varchar', length: '16' },
        ],
        // Serves listPets with a status filter as one keyset range scan; without the filter the
        // primary key does.
        indices: [{ name: 'IDX_pets_status_id', columnNames: ['status', 'id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('pets');
  }
}
