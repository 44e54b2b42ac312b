import type { NextFunction, Request, Response } from 'express';
import { databaseUnavailableAnswer } from '../errors/database-unavailable.js';
import { sendApiError } from './api-exception.filter.js';

/**
 * Every request is answered within 5 s of arriving whole (the README's promise), measured by the
 * client, so the backstop fires a little earlier.
 */
export const ANSWER_DEADLINE_MS = 4_500;

/**
 * Express middleware, early in the chain: a request still unanswered at the deadline gets 503
 * SERVICE_UNAVAILABLE. Only the database can hold a request that long (a silent network partition
 * outlasts the driver's own time-outs once a request needs several statements, or waits in the
 * pool's queue behind others), so the answer says so, and for a write, that it may have been
 * applied. Whatever the handler answers later is dropped by the exception filter.
 */
export function answerDeadline(request: Request, response: Response, next: NextFunction): void {
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setTimeout(() => {
      if (response.headersSent) return;
      // A body still on its way is the client's delay, bounded by REQUEST_TIMEOUT_MS: the deadline counts from its end.
      if (!request.complete) arm();
      else sendApiError(response, databaseUnavailableAnswer(request));
    }, ANSWER_DEADLINE_MS);
  };
  arm();
  response.once('close', () => clearTimeout(timer));
  next();
}
