import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../http/api-exception.js';

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
  'SQLITE_BUSY',
]);

export class ServiceUnavailableException extends ApiException {
  constructor(message = 'The database cannot be reached; retry shortly.') {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
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
