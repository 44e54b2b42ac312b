import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { integer, text } from '../database/columns.js';
import { MetadataPairs } from '../database/metadata-pairs.js';
import { Sql } from '../database/sql.js';
import type { InsertedId, Statement } from '../database/statement.js';
import type { WriteTransaction } from '../database/unit-of-work.js';
import { PET } from './dto/pet-fields.js';
import type { PetDto } from './dto/pet.dto.js';
import { Pet } from './pet.entity.js';
import type { PetStatus } from './pet-status.js';

/** A pet as a write decides on it: what the API shows of it, and the open order holding it. */
export interface PetState {
  readonly pet: PetDto;
  readonly heldByOrderId: number | null;
}

/** What the API shows of a pet, in its answers' order (PET), as the entity declares each column. */
const SHOWN = PET.shown;
/** What a client writes of a pet. */
const WRITTEN = PET.written;

/**
 * The pets table, one written-out statement per question, run by Sql, in ascending id order; their
 * column lists and row readers come from the Pet entity (Table). (TypeORM's Repository.find built
 * and mapped each query for about 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  private readonly shown;
  private readonly heldBy;
  private readonly written;
  private readonly pairs: MetadataPairs;
  private readonly pageSql: string;
  /** Differs by database: see SqlDialect.forceIndex. */
  private readonly pageWithStatusSql: string;
  private readonly byIdSql: string;
  /** Differs by database: see SqlDialect.forUpdate. */
  private readonly stateSql: string;
  /** The same read, holding nothing: a change's first look (UnitOfWork.change). */
  private readonly lookSql: string;
  private readonly insertSql: string;
  private readonly changeSql: string;

  constructor(private readonly sql: Sql) {
    const pets = sql.table(Pet, [...SHOWN, 'heldByOrderId']);
    const shown = sql.table(Pet, SHOWN);
    this.shown = shown.read;
    this.heldBy = sql.table(Pet, ['heldByOrderId']).read;
    const { dialect } = sql;
    this.pairs = new MetadataPairs(dialect, 'pets', 'pet_metadata', 'pet_id', shown.columnsOf('o'));
    this.pageSql = `SELECT ${shown.columns} FROM pets WHERE id > ? ORDER BY id LIMIT ?`;
    this.pageWithStatusSql = `SELECT ${shown.columns} FROM pets${dialect.forceIndex('IDX_pets_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.byIdSql = `SELECT ${shown.columns} FROM pets WHERE id = ?`;
    this.lookSql = `SELECT ${pets.columns} FROM pets WHERE id = ?`;
    this.stateSql = `${this.lookSql}${dialect.forUpdate}`;
    const insert = pets.insert(WRITTEN);
    const set = pets.set(WRITTEN);
    this.insertSql = insert.sql;
    this.written = insert.values;
    // Each change still counts the version up: an instance of 1.4.0 beside this one in a rolling
    // upgrade makes its changes only to the version it read.
    this.changeSql = `UPDATE pets SET ${set.sql}, version = version + 1 WHERE id = ?`;
  }

  /**
   * Up to `limit` pets after `afterId` (0: from the start), only those with `status` when given, and
   * only those whose metadata holds `pair` (name, value) when given.
   */
  page(status: PetStatus | undefined, pair: readonly [string, string] | undefined, afterId: number, limit: number): Promise<PetDto[]> {
    if (pair) return this.sql.rows(...this.pairs.page(pair, status, afterId, limit), this.shown);
    return status
      ? this.sql.rows(this.pageWithStatusSql, [status, afterId, limit], this.shown)
      : this.sql.rows(this.pageSql, [afterId, limit], this.shown);
  }

  async get(id: number): Promise<PetDto | undefined> {
    const [pet] = await this.sql.rows(this.byIdSql, [id], this.shown);
    return pet;
  }

  /** The insert of a pet, whose id is `id`, and of its metadata pairs, for the write that records what else it makes (UnitOfWork). */
  insert(pet: Omit<PetDto, 'id'>, id: InsertedId): Statement[] {
    return [{ sql: this.insertSql, parameters: this.written(pet), inserts: id }, ...this.pairs.insert(id, pet.metadata)];
  }

  /** The pet as a write decides on it, held until that write commits when the write's transaction holds what it reads. */
  async state(transaction: WriteTransaction, id: number): Promise<PetState | undefined> {
    const [state] = await transaction.rows(transaction.holds ? this.stateSql : this.lookSql, [id], (row) => ({
      pet: this.shown(row),
      ...this.heldBy(row),
    }));
    return state;
  }

  /** The change of a pet from `before` to `after`: its row, and its metadata pairs when they changed. */
  change(before: PetDto, after: PetDto): Statement[] {
    const row = { sql: this.changeSql, parameters: [...this.written(after), after.id] };
    return isDeepStrictEqual(before.metadata, after.metadata) ? [row] : [row, ...this.pairs.replace(after.id, after.metadata)];
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

const HOLD = 'UPDATE pets SET status = ?, held_by_order_id = ?, version = version + 1 WHERE id = ?';
const RELEASE = 'UPDATE pets SET status = ?, held_by_order_id = NULL, version = version + 1 WHERE id = ?';
const DELETE = 'DELETE FROM pets WHERE id = ?';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets GROUP BY status';
