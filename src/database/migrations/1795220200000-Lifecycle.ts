import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What pets and orders need to move (issue 46), in plain ALTER TABLE, the same on both databases
 * (TypeORM's addColumn would rebuild a SQLite table):
 * - a version for each pet and order, counted up by every change: a change is made only to the
 *   version it was decided on (`… WHERE id = ? AND version = ?`), so that of two changes at once
 *   exactly one applies and the other learns of it: no lost update, no double sale;
 * - the open order that holds a pet, whose status then moves only with it. An order placed before
 *   1.4.0 holds its pet too: the latest open one (placing did not reserve a pet then).
 */
export class Lifecycle1795220200000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pets ADD COLUMN version integer NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE orders ADD COLUMN version integer NOT NULL DEFAULT 1');
    await queryRunner.query('ALTER TABLE pets ADD COLUMN held_by_order_id bigint NULL');
    await queryRunner.query(
      "UPDATE pets SET held_by_order_id = (SELECT MAX(o.id) FROM orders o WHERE o.pet_id = pets.id AND o.status IN ('placed', 'approved'))",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE pets DROP COLUMN held_by_order_id');
    await queryRunner.query('ALTER TABLE orders DROP COLUMN version');
    await queryRunner.query('ALTER TABLE pets DROP COLUMN version');
  }
}
