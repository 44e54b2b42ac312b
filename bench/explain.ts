/** The statements a repository sends, captured rather than run, for MySQL to EXPLAIN (npm run bench -- --scale). */
import type mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { SqlDialect } from '../src/database/sql-dialect.js';
import type { Sql } from '../src/database/sql.js';
import { Table } from '../src/database/table.js';
import { ENTITIES } from '../src/entities.js';

export interface ExplainedStatement {
  readonly sql: string;
  readonly plan: Record<string, unknown>[];
}

/**
 * Each named read as MySQL plans it: `repositoryOf` gets an Sql whose reads are captured, not run,
 * and each read's statement is then explained with its own values, exactly as the service sends it.
 */
export async function explainReads<R>(
  pool: mysql.Pool,
  databaseUrl: string,
  repositoryOf: (sql: Sql) => R,
  reads: readonly (readonly [string, (repository: R) => Promise<unknown>])[],
): Promise<Record<string, ExplainedStatement>> {
  const dataSource = await new DataSource(buildDataSourceOptions({ kind: 'mysql', url: databaseUrl, poolSize: 1 }, ENTITIES)).initialize();
  try {
    let sent = { sql: '', parameters: [] as unknown[] };
    const sql = {
      dialect: new SqlDialect(dataSource.options),
      table: (entity: new () => object, properties: string[]) => new Table(dataSource.getMetadata(entity), properties as never[]),
      rows: async (text: string, parameters: unknown[]) => ((sent = { sql: text, parameters }), []),
    } as unknown as Sql;
    const repository = repositoryOf(sql);
    const plans: Record<string, ExplainedStatement> = {};
    for (const [name, read] of reads) {
      await read(repository);
      const [rows] = await pool.query(`EXPLAIN ${sent.sql}`, sent.parameters);
      plans[name] = { sql: sent.sql, plan: rows as Record<string, unknown>[] };
    }
    return plans;
  } finally {
    await dataSource.destroy();
  }
}

/** The plans as lines: each statement, then a line per table it reads. */
export function planLines(plans: Record<string, ExplainedStatement>): string[] {
  const lines: string[] = [];
  for (const [name, { sql, plan }] of Object.entries(plans)) {
    lines.push(`  ${name}: ${sql}`);
    for (const row of plan) lines.push(`    type=${row.type} key=${row.key} rows=${row.rows} extra=${row.Extra}`);
  }
  return lines;
}
