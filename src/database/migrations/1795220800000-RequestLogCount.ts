import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * A request log entry may stand for several requests (1.5.1): a key's rate-limited answers (429)
 * are counted in one entry a minute, so that no key grows the log faster than its limit lets it
 * work. Every entry before stood for one.
 */
export class RequestLogCount1795220800000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('request_log', new TableColumn({ name: 'count', type: 'int', default: 1 }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('request_log', 'count');
  }
}
