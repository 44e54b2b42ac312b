import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** The client's X-Request-Id when it sent a sane one, else a new UUID; echoed on the response. */
    requestId: string;
  }
}

/** At most 128 visible ASCII characters: safe to log and to echo. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Express middleware, first in the chain, so every response (documents and errors too) carries the id. */
export function requestId(request: Request, response: Response, next: NextFunction): void {
  const sent = request.headers['x-request-id'];
  request.requestId = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
  response.setHeader('X-Request-Id', request.requestId);
  next();
}
