import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { integer, text } from '../database/columns.js';
import { MetadataPairs } from '../database/metadata-pairs.js';
import { Sql } from '../database/sql.js';
import type { Environment } from '../environments/environment.js';
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
 * column lists and row readers come from the Pet entity (Table). Every statement is confined to the
 * environment its caller names (the first parameter of each method): a pet of another environment
 * is, to it, a pet that does not exist. (TypeORM's Repository.find built and mapped each query for
 * about 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  private readonly shown;
  private readonly heldBy;
  private readonly written;
  private readonly inserted;
  private readonly pairs: MetadataPairs;
  /** Both differ by database: see SqlDialect.forceIndex. */
  private readonly pageSql: string;
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
    // Each page seeks its environment's part of an index that begins with it: a sandbox's few pets
    // are not looked for among the live ones, nor live's among every sandbox's. On MySQL that is the
    // table itself, whose primary key is (environment, id) (migration PetsClusteredByEnvironment).
    this.pageSql = `SELECT ${shown.columns} FROM pets${dialect.forceIndex('PRIMARY')} WHERE environment = ? AND id > ? ORDER BY id LIMIT ?`;
    this.pageWithStatusSql = `SELECT ${shown.columns} FROM pets${dialect.forceIndex('IDX_pets_environment_status_id')} WHERE environment = ? AND status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.byIdSql = `SELECT ${shown.columns} FROM pets WHERE id = ? AND environment = ?`;
    this.lookSql = `SELECT ${pets.columns} FROM pets WHERE id = ? AND environment = ?`;
    this.stateSql = `${this.lookSql}${dialect.forUpdate}`;
    const insert = sql.table(Pet, [...WRITTEN, 'environment']).insert([...WRITTEN, 'environment']);
    const set = pets.set(WRITTEN);
    this.insertSql = insert.sql;
    this.written = set.values;
    this.inserted = insert.values;
    // Each change still counts the version up: an instance of 1.4.0 beside this one in a rolling
    // upgrade makes its changes only to the version it read.
    this.changeSql = `UPDATE pets SET ${set.sql}, version = version + 1 WHERE id = ? AND environment = ?`;
  }

  /**
   * Up to `limit` of the environment's pets after `afterId` (0: from the start), only those with
   * `status` when given, and only those whose metadata holds `pair` (name, value) when given.
   */
  page(
    environment: Environment,
    status: PetStatus | undefined,
    pair: readonly [string, string] | undefined,
    afterId: number,
    limit: number,
  ): Promise<PetDto[]> {
    if (pair) return this.sql.rows(...this.pairs.page(environment, pair, status, afterId, limit), this.shown);
    return status
      ? this.sql.rows(this.pageWithStatusSql, [environment.id, status, afterId, limit], this.shown)
      : this.sql.rows(this.pageSql, [environment.id, afterId, limit], this.shown);
  }

  async get(environment: Environment, id: number): Promise<PetDto | undefined> {
    const [pet] = await this.sql.rows(this.byIdSql, [id, environment.id], this.shown);
    return pet;
  }

  /** The insert of a pet in the environment, whose id is `id`, and of its metadata pairs, for the write that records what else it makes (UnitOfWork). */
  insert(environment: Environment, pet: Omit<PetDto, 'id'>, id: InsertedId): Statement[] {
    return [
      { sql: this.insertSql, parameters: this.inserted({ ...pet, environment: environment.id }), inserts: id },
      ...this.pairs.insert(environment, id, pet.metadata),
    ];
  }

  /** The environment's pet as a write decides on it, held until that write commits when the write's transaction holds what it reads. */
  async state(transaction: WriteTransaction, environment: Environment, id: number): Promise<PetState | undefined> {
    const [state] = await transaction.rows(transaction.holds ? this.stateSql : this.lookSql, [id, environment.id], (row) => ({
      pet: this.shown(row),
      ...this.heldBy(row),
    }));
    return state;
  }

  /** The change of a pet from `before` to `after`: its row, and its metadata pairs when they changed. */
  change(environment: Environment, before: PetDto, after: PetDto): Statement[] {
    const row = { sql: this.changeSql, parameters: [...this.written(after), after.id, environment.id] };
    return isDeepStrictEqual(before.metadata, after.metadata) ? [row] : [row, ...this.pairs.replace(environment, after.id, after.metadata)];
  }

  /** The pet moved to `status` and held by the order whose insert the write names `orderId`. */
  hold(environment: Environment, id: number, status: PetStatus, orderId: InsertedId): Statement {
    return { sql: HOLD, parameters: [status, orderId, id, environment.id] };
  }

  /** The pet moved to `status` and held by no order. */
  release(environment: Environment, id: number, status: PetStatus): Statement {
    return { sql: RELEASE, parameters: [status, id, environment.id] };
  }

  /** The deletion of the pet; orders that name it make it fail (their foreign key). */
  remove(environment: Environment, id: number): Statement {
    return { sql: DELETE, parameters: [id, environment.id] };
  }

  /** How many of the environment's pets have each status that occurs: one aggregate over its part of the (environment, status, id) index. */
  countByStatus(environment: Environment): Promise<{ status: string; count: number }[]> {
    return this.sql.rows(COUNT_BY_STATUS, [environment.id], (row) => ({ status: text(row.status), count: integer(row.count) }));
  }
}

const HOLD = 'UPDATE pets SET status = ?, held_by_order_id = ?, version = version + 1 WHERE id = ? AND environment = ?';
const RELEASE = 'UPDATE pets SET status = ?, held_by_order_id = NULL, version = version + 1 WHERE id = ? AND environment = ?';
const DELETE = 'DELETE FROM pets WHERE id = ? AND environment = ?';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets WHERE environment = ? GROUP BY status';
