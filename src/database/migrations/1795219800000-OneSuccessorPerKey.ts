import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

const INDEX = 'UQ_api_keys_rolled_from_id';

/**
 * A key has at most one successor. Two racing rolls could make two before this index; the later
 * ones keep working (their secrets were shown) but lose the link, so `list` says which key replaced
 * the old one. NULLs are not equal to one another, so keys that were never rolled from any are free.
 */
export class OneSuccessorPerKey1795219800000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const rolled: { id: number; rolledFromId: number }[] = await queryRunner.query(
      'SELECT id, rolled_from_id AS rolledFromId FROM api_keys WHERE rolled_from_id IS NOT NULL ORDER BY id',
    );
    const linked = new Set<number>();
    for (const { id, rolledFromId } of rolled) {
      if (!linked.has(Number(rolledFromId))) linked.add(Number(rolledFromId));
      else await queryRunner.query('UPDATE api_keys SET rolled_from_id = NULL WHERE id = ?', [id]);
    }
    await queryRunner.createIndex('api_keys', new TableIndex({ name: INDEX, columnNames: ['rolled_from_id'], isUnique: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('api_keys', INDEX);
  }
}
