import { Injectable } from '@nestjs/common';
import { id, integer, text } from '../database/columns.js';
import { type Row, Sql, type Statement } from '../database/sql.js';
import type { PetDto } from './dto/pet.dto.js';
import type { PetStatus } from './pet-status.js';

const COLUMNS = 'id, name, category_id AS categoryId, status';
const PAGE = `SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`;
const BY_ID = `SELECT ${COLUMNS} FROM pets WHERE id = ?`;
const INSERT = 'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets GROUP BY status';

/** A row of pets: all the API shows of a pet. */
const readPet = (row: Row): PetDto => ({
  id: id(row.id),
  name: text(row.name),
  categoryId: integer(row.categoryId),
  status: text(row.status) as PetStatus,
});

/**
 * The pets table, one written-out statement per question, run by Sql, in ascending id order. (The
 * Pet entity declares the table; TypeORM's Repository.find built and mapped each query for about
 * 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  /** The one statement that differs by database: see SqlDialect.forceIndex. */
  private readonly pageWithStatusSql: string;

  constructor(private readonly sql: Sql) {
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM pets${sql.dialect.forceIndex('IDX_pets_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
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

  /** How many pets have each status that occurs: one aggregate over the (status, id) index. */
  countByStatus(): Promise<{ status: string; count: number }[]> {
    return this.sql.rows(COUNT_BY_STATUS, [], (row) => ({ status: text(row.status), count: integer(row.count) }));
  }
}
