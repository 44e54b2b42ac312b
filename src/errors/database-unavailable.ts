import { HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { ApiException } from './api-exception.js';

/** The code of the error a query gets when no pool connection came free in time (see mysql-pool-bounds.ts). */
export const POOL_ACQUIRE_TIMEOUT = 'POOL_ACQUIRE_TIMEOUT';

/**
 * The code of the error a statement gets when its new connection's session could not be set up as
 * the service needs (database/session.ts): the database is there, but not usable as it is.
 */
export const SESSION_REFUSED = 'SESSION_REFUSED';

/** How long a client should wait before retrying while the database is away. */
const RETRY_AFTER_SECONDS = 5;

/** Errors that mean "the database cannot be reached right now", not "this request was wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // A Galera node outside a primary component (quorum lost): WSREP_NOT_READY, errno 1047; and a
  // commit it could not replicate as it lost its quorum (1180, rolled back: nothing was applied).
  'ER_UNKNOWN_COM_ERROR',
  'ER_ERROR_DURING_COMMIT',
  // A write conflict that kept recurring after retries (write-conflicts.ts): answered "retry".
  'ER_LOCK_DEADLOCK',
  POOL_ACQUIRE_TIMEOUT,
  SESSION_REFUSED,
  'SQLITE_BUSY',
]);

export class DatabaseUnavailableException extends ApiException {
  constructor(message = 'The database cannot be reached; retry shortly.') {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
}

/**
 * The database went away while a write may have been under way: it may have been applied, so the
 * answer must not invite a plain retry, which could apply it twice.
 */
export class WriteOutcomeUnknownException extends DatabaseUnavailableException {
  constructor() {
    super(
      'The database did not answer in time, so this request may have created its resource. Retry it with an ' +
        'Idempotency-Key (the same one, if it had one): a request with a key is never applied twice.',
    );
  }
}

/** The 503 for a request the database failed: a write that got past authentication may have been applied. */
export function databaseUnavailableAnswer(request: { method: string; apiKey?: unknown }): DatabaseUnavailableException {
  const mayHaveWritten = request.apiKey && !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
  return mayHaveWritten ? new WriteOutcomeUnknownException() : new DatabaseUnavailableException();
}

/**
 * Whether an error (raw from the driver, or a TypeORM error wrapping one) says the database is out of
 * reach. mysql2 marks errors that broke the connection itself `fatal`, whatever their code.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown } | null)?.driverError];
  return candidates.some((candidate) => {
    const { code, fatal } = (candidate ?? {}) as { code?: unknown; fatal?: unknown };
    return (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) || fatal === true;
  });
}

/**
 * Marks a response as a 503 because the database could not be reached, with what went wrong: the
 * outage log (http/outage-log.ts) counts it rather than logging it on its own.
 */
export function markDatabaseUnavailable(response: Response, cause: string): void {
  response.locals.databaseUnavailable = cause;
}

export function isDatabaseUnavailableAnswer(response: Response): boolean {
  return response.locals.databaseUnavailable !== undefined;
}
