import { SESSION_REFUSED } from '../errors/database-unavailable.js';

/**
 * The MySQL session every statement of the service is written for, set on each connection before its
 * first statement and read back: whatever the server's defaults say (a DBA's NO_BACKSLASH_ESCAPES or
 * ANSI_QUOTES, a GBK character set, a local time zone), the service's statements mean one thing.
 * - sql_mode: MySQL 8's default, which MariaDB knows too. STRICT_TRANS_TABLES makes a value that does
 *   not fit an error, never a silent truncation; no NO_BACKSLASH_ESCAPES, ANSI_QUOTES or PIPES_AS_CONCAT.
 * - NAMES utf8mb4 with the tables' collation: text travels as UTF-8, any Unicode (emoji too).
 * - time_zone UTC: DATETIME values are written and read as UTC.
 */
export const SESSION_SQL_MODES = [
  'ONLY_FULL_GROUP_BY',
  'STRICT_TRANS_TABLES',
  'NO_ZERO_IN_DATE',
  'NO_ZERO_DATE',
  'ERROR_FOR_DIVISION_BY_ZERO',
  'NO_ENGINE_SUBSTITUTION',
] as const;
const CHARSET = 'utf8mb4';
const COLLATION = 'utf8mb4_unicode_ci';
const TIME_ZONE = '+00:00';

export const SET_SESSION =
  `SET SESSION sql_mode = '${SESSION_SQL_MODES.join(',')}', NAMES ${CHARSET} COLLATE ${COLLATION}, ` + `SESSION time_zone = '${TIME_ZONE}'`;

export const READ_SESSION =
  'SELECT @@SESSION.sql_mode AS sqlMode, @@SESSION.character_set_client AS characterSetClient, ' +
  '@@SESSION.character_set_connection AS characterSetConnection, @@SESSION.character_set_results AS characterSetResults, ' +
  '@@SESSION.collation_connection AS collationConnection, @@SESSION.time_zone AS timeZone';

/** The session's settings as READ_SESSION answers them. */
export interface SessionSettings {
  readonly sqlMode: string;
  readonly characterSetClient: string;
  readonly characterSetConnection: string;
  readonly characterSetResults: string | null;
  readonly collationConnection: string;
  readonly timeZone: string;
}

/** What of `settings` differs from the session the service needs; empty when it is that session. */
export function sessionDifferences(settings: SessionSettings): string[] {
  const modes = new Set(settings.sqlMode.split(',').filter(Boolean));
  const differences: string[] = [];
  const missing = SESSION_SQL_MODES.filter((mode) => !modes.has(mode));
  const extra = [...modes].filter((mode) => !(SESSION_SQL_MODES as readonly string[]).includes(mode));
  if (missing.length > 0 || extra.length > 0) differences.push(`sql_mode is '${settings.sqlMode}'`);
  for (const [name, value, wanted] of [
    ['character_set_client', settings.characterSetClient, CHARSET],
    ['character_set_connection', settings.characterSetConnection, CHARSET],
    ['character_set_results', settings.characterSetResults, CHARSET],
    ['collation_connection', settings.collationConnection, COLLATION],
    ['time_zone', settings.timeZone, TIME_ZONE],
  ] as const) {
    if (value !== wanted) differences.push(`${name} is ${value === null ? 'NULL' : `'${value}'`}, not '${wanted}'`);
  }
  return differences;
}

/** A connection that could not be given the service's session; it was closed unused (a 503, like an outage). */
export class SessionRefusedError extends Error {
  readonly code = SESSION_REFUSED;

  constructor(reason: string, options?: ErrorOptions) {
    super(
      `the session the service needs could not be set (${SET_SESSION}): ${reason}. ` +
        'The server, or a proxy in between, must allow these session settings (docs/SECURITY.md)',
      options,
    );
  }
}
