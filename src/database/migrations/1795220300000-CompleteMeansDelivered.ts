import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order is complete exactly when it is delivered (1.5.0). 1.4.0 stored the complete a client
 * placed an order with, so an order placed complete and then cancelled read complete: such rows
 * are set to what their status makes them. A data fix: down leaves the rows as they are.
 */
export class CompleteMeansDelivered1795220300000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("UPDATE orders SET complete = 0 WHERE complete <> 0 AND status <> 'delivered'");
    await queryRunner.query("UPDATE orders SET complete = 1 WHERE complete = 0 AND status = 'delivered'");
  }

  async down(): Promise<void> {}
}
