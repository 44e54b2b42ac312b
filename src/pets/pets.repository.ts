import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlDialect } from '../database/sql-dialect.js';
import { Sql, type Statement } from '../database/sql.js';
import type { PetDto } from './dto/pet.dto.js';
import type { PetStatus } from './pet-status.js';

const COLUMNS = 'id, name, category_id AS categoryId, status';
const PAGE = `SELECT ${COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`;
const BY_ID = `SELECT ${COLUMNS} FROM pets WHERE id = ?`;
const INSERT = 'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)';
const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS count FROM pets GROUP BY status';

/**
 * The pets table, one written-out statement per question, run by Sql on TypeORM's connection. A
 * row is all the API shows of a pet, so rows come back as they are, as PetDto values (every id and
 * category fits a JSON number, and data-source-options asks mysql2 for numbers), in ascending id
 * order. (The Pet entity declares the table; TypeORM's Repository.find built and mapped each query
 * for about 0.35 ms of CPU, most of what a listPets cost.)
 */
@Injectable()
export class PetsRepository {
  private readonly dialect: SqlDialect;
  /** The one statement that differs by database: see SqlDialect.forceIndex. */
  private readonly pageWithStatusSql: string;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: Sql,
  ) {
    this.dialect = new SqlDialect(dataSource);
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM pets${this.dialect.forceIndex('IDX_pets_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
  }

  /** Up to `limit` pets after `afterId` (0: from the start), only those with `status` when given. */
  page(status: PetStatus | undefined, afterId: number, limit: number): Promise<PetDto[]> {
    return status ? this.sql.rows(this.pageWithStatusSql, [status, afterId, limit]) : this.sql.rows(PAGE, [afterId, limit]);
  }

  async get(id: number): Promise<PetDto | undefined> {
    const [row] = await this.sql.rows<PetDto>(BY_ID, [id]);
    return row;
  }

  /** The insert of a pet, to run in the transaction that records what else it makes (Sql.write). */
  insert({ name, categoryId, status }: Omit<PetDto, 'id'>): Statement {
    return { sql: INSERT, parameters: [name, categoryId, status] };
  }

  /** How many pets have each status that occurs: one aggregate over the (status, id) index. */
  async countByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.sql.rows<{ status: string; count: number | string }>(COUNT_BY_STATUS, []);
    return rows.map(({ status, count }) => ({ status, count: Number(count) }));
  }
}
