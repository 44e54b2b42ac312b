import { describe, expect, it } from '@jest/globals';
import type { Sql, Written } from '../../src/database/sql.js';
import type { Statement } from '../../src/database/statement.js';
import { UnitOfWork, type WriteTransaction } from '../../src/database/unit-of-work.js';

/** An InnoDB deadlock or a Galera certification failure, as mysql2 reports it: the transaction was rolled back whole. */
const conflict = () =>
  Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { code: 'ER_LOCK_DEADLOCK' });

/** The database's side of a change: each write answers the next of `outcomes` (an error is thrown). */
function database(outcomes: (Error | 'applied')[]): { sql: Sql; written: Statement[][] } {
  const written: Statement[][] = [];
  const sql = {
    begin: async () => ({
      rows: async () => [],
      run: async () => ({ affectedRows: 0, insertId: 0 }),
      rollback: async () => undefined,
      commit: async (statements: readonly Statement[]): Promise<Written[]> => {
        written.push([...statements]);
        const outcome = outcomes.shift();
        if (outcome instanceof Error) throw outcome;
        return statements.map(() => ({ affectedRows: 1, insertId: 0 }));
      },
    }),
  } as unknown as Sql;
  return { sql, written };
}

describe('a decided change that loses a write conflict', () => {
  it('is decided anew on what is there now, not run again as it was decided (which answered 503 on the cluster)', async () => {
    const { sql, written } = database([conflict(), 'applied']);
    const pet = { status: 'available' };
    const decisions: string[] = [];
    const changed = await new UnitOfWork(sql).write(async () => {
      decisions.push(pet.status);
      const statement = { sql: `UPDATE pets SET status = 'pending' WHERE status = '${pet.status}'`, parameters: [] };
      // What the winner of the conflict did meanwhile: the next decision reads it.
      pet.status = 'pending';
      return { answer: { decided: decisions.length }, statements: [statement] };
    });
    expect(changed).toEqual({ decided: 2 });
    expect(decisions).toEqual(['available', 'pending']);
    expect(written.map(([statement]) => statement.sql)).toEqual([
      "UPDATE pets SET status = 'pending' WHERE status = 'available'",
      "UPDATE pets SET status = 'pending' WHERE status = 'pending'",
    ]);
  });

  it("answers the client's own error when the new decision refuses the change, writing nothing more", async () => {
    const { sql, written } = database([conflict()]);
    let decisions = 0;
    const refused = new Error('409 PET_NOT_AVAILABLE');
    await expect(
      new UnitOfWork(sql).write(async () => {
        if (++decisions > 1) throw refused;
        return { answer: {}, statements: [{ sql: 'INSERT INTO orders …', parameters: [] }] };
      }),
    ).rejects.toBe(refused);
    expect({ decisions, writes: written.length }).toEqual({ decisions: 2, writes: 1 });
  });

  it('is answered 503 SERVICE_UNAVAILABLE, "retry", after five conflicts in a row; any other error at once', async () => {
    const { sql, written } = database(Array.from({ length: 5 }, conflict));
    const decide = async () => ({ answer: {}, statements: [{ sql: 'INSERT INTO orders …', parameters: [] }] });
    await expect(new UnitOfWork(sql).write(decide)).rejects.toMatchObject({ status: 503 });
    expect(written).toHaveLength(5);

    const other = database([Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' })]);
    await expect(new UnitOfWork(other.sql).write(decide)).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(other.written).toHaveLength(1);
  });
});

describe('a change (UnitOfWork.change)', () => {
  /** The database's side: what each read answers (the look's, then the transaction's), and what was begun and written. */
  function rows(looked: string, held: string) {
    const log: string[] = [];
    const sql = {
      rows: async () => {
        log.push('look');
        return [looked];
      },
      begin: async () => {
        log.push('begin');
        return {
          holds: true,
          rows: async () => [held],
          run: async () => ({ affectedRows: 0, insertId: 0 }),
          rollback: async () => void log.push('rollback'),
          commit: async (statements: readonly Statement[]): Promise<Written[]> => {
            log.push(`commit ${statements.map(({ sql: text }) => text).join('; ')}`);
            return statements.map(() => ({ affectedRows: 1, insertId: 0 }));
          },
        };
      },
    } as unknown as Sql;
    return { sql, log };
  }
  /** Renames the row to `name`, after reading it (a refusal when it reads `refuse`), holding it only where the reads hold. */
  const rename = (name: string, refuse?: string) => async (transaction: WriteTransaction) => {
    const [current] = await transaction.rows<string>('SELECT name', [], (row) => row as unknown as string);
    if (current === refuse) throw new Error('412 PRECONDITION_FAILED');
    const statements = current === name ? [] : [{ sql: `UPDATE ${current} TO ${name}`, parameters: [] }];
    return { answer: { name, held: transaction.holds }, statements };
  };

  it('answers a decision that writes nothing from the look, beginning no transaction', async () => {
    const { sql, log } = rows('Rex', 'Rex');
    expect(await new UnitOfWork(sql).change(rename('Rex'))).toEqual({ name: 'Rex', held: false });
    expect(log).toEqual(['look']);
  });

  it('answers a refusal from the look, beginning no transaction', async () => {
    const { sql, log } = rows('Stale', 'Stale');
    await expect(new UnitOfWork(sql).change(rename('Rex', 'Stale'))).rejects.toThrow('412');
    expect(log).toEqual(['look']);
  });

  it('decides a change that writes again on what its transaction holds, and commits that decision', async () => {
    const { sql, log } = rows('Rex', 'Max');
    expect(await new UnitOfWork(sql).change(rename('Bo'))).toEqual({ name: 'Bo', held: true });
    expect(log).toEqual(['look', 'begin', 'commit UPDATE Max TO Bo']);
  });

  it('refuses on the held row what the look would have written (If-Match against the row written)', async () => {
    const { sql, log } = rows('Rex', 'Stale');
    await expect(new UnitOfWork(sql).change(rename('Bo', 'Stale'))).rejects.toThrow('412');
    expect(log).toEqual(['look', 'begin', 'rollback']);
  });
});
