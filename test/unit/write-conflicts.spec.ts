import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { isWriteConflict, retryingWriteConflicts } from '../../src/database/write-conflicts.js';

const conflict = () =>
  new QueryFailedError(
    'COMMIT',
    [],
    Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 }),
  );

describe('write conflicts (a Galera certification failure, an InnoDB deadlock)', () => {
  it('are ER_LOCK_DEADLOCK, raw from the driver or wrapped by TypeORM', () => {
    expect(isWriteConflict(conflict())).toBe(true);
    expect(isWriteConflict({ code: 'ER_LOCK_DEADLOCK' })).toBe(true);
    expect(isWriteConflict({ code: 'ER_DUP_ENTRY' })).toBe(false);
    expect(isWriteConflict(undefined)).toBe(false);
  });

  it('are run again until the work succeeds, three tries at most', async () => {
    let tries = 0;
    const outcome = await retryingWriteConflicts(async () => {
      if (++tries < 3) throw conflict();
      return 'done';
    });
    expect({ outcome, tries }).toEqual({ outcome: 'done', tries: 3 });

    tries = 0;
    await expect(
      retryingWriteConflicts(async () => {
        tries++;
        throw conflict();
      }),
    ).rejects.toBeInstanceOf(QueryFailedError);
    expect(tries).toBe(3);
  });

  it('never run again work that failed otherwise', async () => {
    let tries = 0;
    await expect(
      retryingWriteConflicts(async () => {
        tries++;
        throw new Error('a unique violation, say');
      }),
    ).rejects.toThrow('a unique violation');
    expect(tries).toBe(1);
  });
});
