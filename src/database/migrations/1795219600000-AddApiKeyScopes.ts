import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/** Every key made before scopes existed keeps doing everything it did: it holds all four. */
const ALL_SCOPES = 'pets:read pets:write store:read store:write';

export class AddApiKeyScopes1795219600000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('api_keys', new TableColumn({ name: 'scopes', type: 'varchar', length: '64', default: `'${ALL_SCOPES}'` }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'scopes');
  }
}
