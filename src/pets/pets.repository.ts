import { Injectable } from '@nestjs/common';
import { id, integer, optionalId, text } from '../database/columns.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';
import type { InsertedId, Statement } from '../database/statement.js';
import type { PetDto } from './dto/pet.dto.js';
import type { PetStatus } from './pet-status.js';

const COLUMNS = 'id, name, category_id AS categoryId, status';
const PAGE = `SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`;
const BY_ID = `SELECT ${COLUMNS} FROM pets WHERE id = ?`;
const INSERT = 'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)';
// Each change still counts the version up: an instance of 1.4.0 beside this one in a rolling
// upgrade makes its changes only to the version it read.
const CHANGE = 'UPDATE pets SET name = ?, category_id = ?, status = ?, version = version + 1 WHERE id = ?';
const HOLD = 'UPDATE pets SET status = ?, held_by_order_id = ?, version = version + 1 WHERE id = ?';
const RELEASE = 'UPDATE pets SET status = ?, held_by_order_id = NULL, version = version + 1 WHERE id = ?';
const DELETE = 'DELETE FROM pets WHERE id = ?';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets GROUP BY status';

/** A row of pets: all the API shows of a pet. */
const readPet = (row: Row): PetDto => ({
  id: id(row.id),
  name: text(row.name),
  categoryId: integer(row.categoryId),
  status: text(row.status) as PetStatus,
});

/** A pet as a write decides on it: what the API shows of it, and the open order holding it. */
export interface PetState {
  readonly pet: PetDto;
  readonly heldByOrderId: number | null;
}

const readPetState = (row: Row): PetState => ({ pet: readPet(row), heldByOrderId: optionalId(row.heldByOrderId) });

/**
 * The pets table, one written-out statement per question, run by Sql, in ascending id order. (The
 * Pet entity declares the table; TypeORM's Repository.find built and mapped each query for about
 * 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  /** The statements that differ by database: see SqlDialect.forceIndex and forUpdate. */
  private readonly pageWithStatusSql: string;
  private readonly stateSql: string;

  constructor(private readonly sql: Sql) {
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM pets${sql.dialect.forceIndex('IDX_pets_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.stateSql = `SELECT ${COLUMNS}, held_by_order_id AS heldByOrderId FROM pets WHERE id = ?${sql.dialect.forUpdate}`;
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

  /** The insert of a pet, whose id is `id`, for the write that records what else it makes (UnitOfWork). */
  insert({ name, categoryId, status }: Omit<PetDto, 'id'>, id: InsertedId): Statement {
    return { sql: INSERT, parameters: [name, categoryId, status], inserts: id };
  }

  /** The pet as a write decides on it, held until that write commits (the write's transaction). */
  async state(transaction: SqlRunner, id: number): Promise<PetState | undefined> {
    const [state] = await transaction.rows(this.stateSql, [id], readPetState);
    return state;
  }

  /** The change of a pet to `pet`. */
  change({ id, name, categoryId, status }: PetDto): Statement {
    return { sql: CHANGE, parameters: [name, categoryId, status, id] };
  }

  /** The pet moved to `status` and held by the order whose insert the write names `orderId`. */
  hold(id: number, status: PetStatus, orderId: InsertedId): Statement {
    return { sql: HOLD, parameters: [status, orderId, id] };
  }

  /** The pet moved to `status` and held by no order. */
  release(id: number, status: PetStatus): Statement {
    return { sql: RELEASE, parameters: [status, id] };
  }

  /** The deletion of the pet; orders that name it make it fail (their foreign key). */
  remove(id: number): Statement {
    return { sql: DELETE, parameters: [id] };
  }

  /** How many pets have each status that occurs: one aggregate over the (status, id) index. */
  countByStatus(): Promise<{ status: string; count: number }[]> {
    return this.sql.rows(COUNT_BY_STATUS, [], (row) => ({ status: text(row.status), count: integer(row.count) }));
  }
}
