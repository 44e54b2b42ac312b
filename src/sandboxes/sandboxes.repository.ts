import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { datetime, id, optionalDatetime, text } from '../database/columns.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';

/** A row of sandboxes, as the service and the operator's tool use it. */
export interface StoredSandbox {
  /** The numeric id: its Environment's, never shown to integrators. */
  readonly rowId: number;
  /** `sbx_…`, the id the API shows. */
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly deletedAt: Date | null;
}

export interface NewSandbox {
  readonly name: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

const COLUMNS = 'id AS rowId, public_id AS id, name, created_at AS createdAt, expires_at AS expiresAt, deleted_at AS deletedAt';
/** The numeric id in ORDER BY, where both databases would read a bare `id` as the select list's `public_id AS id`. */
const BY_ROW = 'ORDER BY sandboxes.id';
/** In use: neither deleted nor expired at the time given. */
const ACTIVE = 'deleted_at IS NULL AND expires_at > ?';
const HOLD_ACTIVE = `SELECT id FROM sandboxes WHERE ${ACTIVE}`;
const INSERT = 'INSERT INTO sandboxes (public_id, name, created_at, expires_at) VALUES (?, ?, ?, ?)';
const ACTIVE_BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM sandboxes WHERE public_id = ? AND ${ACTIVE}`;
const BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM sandboxes WHERE public_id = ?`;
const ACTIVE_PAGE = `SELECT ${COLUMNS} FROM sandboxes WHERE ${ACTIVE} AND sandboxes.id > ? ${BY_ROW} LIMIT ?`;
const ALL = `SELECT ${COLUMNS} FROM sandboxes ${BY_ROW}`;
const MARK_DELETED = `UPDATE sandboxes SET deleted_at = ? WHERE id = ? AND ${ACTIVE}`;
/** Deleted or expired: what the remover takes away, oldest first. */
const TO_REMOVE = `SELECT ${COLUMNS} FROM sandboxes WHERE deleted_at IS NOT NULL OR expires_at <= ? ${BY_ROW} LIMIT ?`;
const REMOVE = 'DELETE FROM sandboxes WHERE id = ? AND (deleted_at IS NOT NULL OR expires_at <= ?)';

const readSandbox = (row: Row): StoredSandbox => ({
  rowId: id(row.rowId),
  id: text(row.id),
  name: text(row.name),
  createdAt: datetime(row.createdAt),
  expiresAt: datetime(row.expiresAt),
  deletedAt: optionalDatetime(row.deletedAt),
});

/**
 * The sandboxes table, one written-out statement per question. Not a confined table: a sandbox is
 * an environment, and only a live key (or the operator) sees the list of them.
 */
@Injectable()
export class SandboxesRepository {
  private readonly holdActiveSql: string;

  constructor(private readonly sql: Sql) {
    // The sandboxes in use, held until the create that counted them commits: see create's comment.
    this.holdActiveSql = `${HOLD_ACTIVE}${sql.dialect.forUpdate}`;
  }

  /** Runs `work` in one transaction, handing it the transaction's runner for the statements below (and a key's). */
  transaction<T>(work: (transaction: SqlRunner) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /**
   * How many sandboxes are in use at `now`, their rows held until `transaction` ends: on MySQL a
   * locking read of them (and of the gap a new one would go in), so that of two creates counting at
   * once the second waits for the first's commit and counts it, or loses a deadlock and is decided
   * again; on SQLite the transaction holds the write lock already.
   */
  async holdActive(now: Date, transaction: SqlRunner): Promise<number> {
    return (await transaction.rows(this.holdActiveSql, [now], () => true)).length;
  }

  /** Stores a new sandbox inside `transaction`, with a public id of 128 random bits. */
  async insert({ name, createdAt, expiresAt }: NewSandbox, transaction: SqlRunner): Promise<StoredSandbox> {
    const publicId = `sbx_${randomBytes(16).toString('base64url')}`;
    const { insertId } = await transaction.run(INSERT, [publicId, name, createdAt, expiresAt]);
    return { rowId: insertId, id: publicId, name, createdAt, expiresAt, deletedAt: null };
  }

  /** The sandbox with this public id when it is in use at `now`: neither deleted nor expired. */
  async findActive(publicId: string, now: Date, transaction: SqlRunner = this.sql): Promise<StoredSandbox | undefined> {
    const [sandbox] = await transaction.rows(ACTIVE_BY_PUBLIC_ID, [publicId, now], readSandbox);
    return sandbox;
  }

  /** The sandbox with this public id, whatever its state (the operator's tool says which). */
  async find(publicId: string): Promise<StoredSandbox | undefined> {
    const [sandbox] = await this.sql.rows(BY_PUBLIC_ID, [publicId], readSandbox);
    return sandbox;
  }

  /** The sandboxes in use at `now` after the row `afterRowId`, in id order: a keyset page. */
  activePage(now: Date, afterRowId: number, limit: number): Promise<StoredSandbox[]> {
    return this.sql.rows(ACTIVE_PAGE, [now, afterRowId, limit], readSandbox);
  }

  /** Every sandbox still stored, removed ones' rows not yet gone included (the operator's list). */
  all(): Promise<StoredSandbox[]> {
    return this.sql.rows(ALL, [], readSandbox);
  }

  /** Marks the sandbox deleted at `at` if it is in use at `at`; false when it was not. */
  async markDeleted(rowId: number, at: Date, transaction: SqlRunner = this.sql): Promise<boolean> {
    return (await transaction.run(MARK_DELETED, [at, rowId, at])).affectedRows === 1;
  }

  /** Up to `limit` sandboxes deleted, or expired at `now`, whose rows are to be removed. */
  toRemove(now: Date, limit: number): Promise<StoredSandbox[]> {
    return this.sql.rows(TO_REMOVE, [now, limit], readSandbox);
  }

  /** Removes the sandbox's own row, once its environment holds nothing more; never one in use at `now`. */
  async remove(rowId: number, now: Date): Promise<void> {
    await this.sql.run(REMOVE, [rowId, now]);
  }
}
