import { describe, expect, it } from '@jest/globals';
import { SESSION_SQL_MODES, type SessionSettings, sessionDifferences } from '../../src/database/session.js';

const pinned: SessionSettings = {
  sqlMode: [...SESSION_SQL_MODES].reverse().join(','),
  characterSetClient: 'utf8mb4',
  characterSetConnection: 'utf8mb4',
  characterSetResults: 'utf8mb4',
  collationConnection: 'utf8mb4_unicode_ci',
  timeZone: '+00:00',
};

describe('the session the service needs, read back', () => {
  it('is that session whatever order the server lists the modes in', () => {
    expect(sessionDifferences(pinned)).toEqual([]);
  });

  it('names every setting that differs: a mode more or less, another character set, time zone', () => {
    expect(
      sessionDifferences({
        ...pinned,
        sqlMode: `${pinned.sqlMode},NO_BACKSLASH_ESCAPES`,
        characterSetClient: 'gbk',
        characterSetResults: null,
        timeZone: 'SYSTEM',
      }),
    ).toEqual([
      `sql_mode is '${pinned.sqlMode},NO_BACKSLASH_ESCAPES'`,
      "character_set_client is 'gbk', not 'utf8mb4'",
      "character_set_results is NULL, not 'utf8mb4'",
      "time_zone is 'SYSTEM', not '+00:00'",
    ]);
    expect(sessionDifferences({ ...pinned, sqlMode: 'STRICT_TRANS_TABLES' })).toEqual(["sql_mode is 'STRICT_TRANS_TABLES'"]);
  });
});
