import { Injectable } from '@nestjs/common';
import { id, integer, optionalId, text } from '../database/columns.js';
import { type Row, Sql } from '../database/sql.js';
import type { Statement } from '../database/statement.js';
import type { PetDto } from './dto/pet.dto.js';
import type { PetStatus } from './pet-status.js';

const COLUMNS = 'id, name, category_id AS categoryId, status';
const PAGE = `SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`;
const BY_ID = `SELECT ${COLUMNS} FROM pets WHERE id = ?`;
const INSERT = 'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)';
const STATE = `SELECT ${COLUMNS}, version, held_by_order_id AS heldByOrderId FROM pets WHERE id = ?`;
const CHANGE = 'UPDATE pets SET name = ?, category_id = ?, status = ?, version = version + 1 WHERE id = ? AND version = ?';
const RELEASE = 'UPDATE pets SET status = ?, held_by_order_id = NULL, version = version + 1 WHERE id = ? AND version = ?';
const DELETE = 'DELETE FROM pets WHERE id = ? AND version = ?';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets GROUP BY status';

/** A row of pets: all the API shows of a pet. */
const readPet = (row: Row): PetDto => ({
  id: id(row.id),
  name: text(row.name),
  categoryId: integer(row.categoryId),
  status: text(row.status) as PetStatus,
});

/** A pet as a change reads it: what the API shows of it, the version the change is made to, and the open order holding it. */
export interface PetState {
  readonly pet: PetDto;
  readonly version: number;
  readonly heldByOrderId: number | null;
}

const readPetState = (row: Row): PetState => ({
  pet: readPet(row),
  version: integer(row.version),
  heldByOrderId: optionalId(row.heldByOrderId),
});

/**
 * The pets table, one written-out statement per question, run by Sql, in ascending id order. (The
 * Pet entity declares the table; TypeORM's Repository.find built and mapped each query for about
 * 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  /** The statements that differ by database: see SqlDialect.forceIndex, and the id of the order an insert just made. */
  private readonly pageWithStatusSql: string;
  private readonly holdSql: string;

  constructor(private readonly sql: Sql) {
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM pets${sql.dialect.forceIndex('IDX_pets_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.holdSql = `UPDATE pets SET status = ?, held_by_order_id = ${sql.dialect.insertedId}, version = version + 1 WHERE id = ? AND version = ?`;
  }

  /** Up to `limit` pets after `afterId` (0: from the start), only those with `status` when given. */
  page(status: PetStatus | undefined, afterId: number, limit: number): Promise<PetDto[]> {
    return status
      ? this.sql.rows(this.pageWithStatusSql, [status, afterId, limit], readPet)
      : this.sql.rows(PAGE, [afterId, limit], readPet);
  }

  async get(id: number): Promise<PetDto | undefined> {
    const [pet] = await this.sql.rows(BY_ID, [id], readPet);
    return pet;
  }

  /** The insert of a pet, to run in the transaction that records what else it makes (Sql.write). */
  insert({ name, categoryId, status }: Omit<PetDto, 'id'>): Statement {
    return { sql: INSERT, parameters: [name, categoryId, status] };
  }

  /** The pet as a change reads it. */
  async state(id: number): Promise<PetState | undefined> {
    const [state] = await this.sql.rows(STATE, [id], readPetState);
    return state;
  }

  /** The change of a pet, as read, to `pet`: to run in the transaction that records its event. */
  change({ pet: { id }, version }: PetState, { name, categoryId, status }: PetDto): Statement {
    return { sql: CHANGE, parameters: [name, categoryId, status, id, version], toRowAsRead: true };
  }

  /** The pet, as read, moved to `status` and held by the order the transaction's last insert made. */
  hold({ pet: { id }, version }: PetState, status: PetStatus): Statement {
    return { sql: this.holdSql, parameters: [status, id, version], toRowAsRead: true };
  }

  /** The pet, as read, moved to `status` and held by no order. */
  release({ pet: { id }, version }: PetState, status: PetStatus): Statement {
    return { sql: RELEASE, parameters: [status, id, version], toRowAsRead: true };
  }

  /** The deletion of the pet, as read; orders that name it make it fail (their foreign key). */
  remove({ pet: { id }, version }: PetState): Statement {
    return { sql: DELETE, parameters: [id, version], toRowAsRead: true };
  }

  /** How many pets have each status that occurs: one aggregate over the (status, id) index. */
  countByStatus(): Promise<{ status: string; count: number }[]> {
    return this.sql.rows(COUNT_BY_STATUS, [], (row) => ({ status: text(row.status), count: integer(row.count) }));
  }
}
