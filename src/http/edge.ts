import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BrowserCallRefusedException } from '../auth/api-key.exceptions.js';
import { ANSWER_DEADLINE_MS } from '../config/deadlines.js';
import type { ApiException } from '../errors/api-exception.js';
import { databaseUnavailableAnswer, markDatabaseUnavailable } from '../errors/database-unavailable.js';
import { sendApiError } from '../errors/api-exception.filter.js';
import { containsKey } from '../logging/redact-url.js';
import type { InFlightRequests } from './in-flight-requests.js';
import { toOriginForm } from './request-target.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The client's X-Request-Id when it sent a sane one (never one shaped like a key), else a new UUID; echoed on the response. */
    requestId: string;
    /** When the request arrived (performance.now()): its duration and answer deadline count from here. */
    arrivedAt: number;
  }
}

/** At most 128 visible ASCII characters: safe to log and to echo. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** A request that has been answered (or whose client went away), for whoever records it. */
export interface FinishedRequest {
  readonly request: Request;
  readonly response: Response;
  readonly durationMs: number;
  /** An error of the response stream itself; errors the API answered are in the status. */
  readonly error?: Error;
}

export interface EdgeOptions {
  /** Headers every response carries, computed once at start-up (helmet's, for one). */
  readonly headers: readonly (readonly [string, string])[];
  /** Called once per request when its response is done: the request log line, the metrics. */
  readonly finished: readonly ((finished: FinishedRequest) => void)[];
  /** The responses under way, which admits no request once the service is stopping. */
  readonly inFlight: InFlightRequests;
  /** The methods some route answers to: the `Allow` of `OPTIONS *`. */
  readonly serverMethods: () => readonly string[];
}

/**
 * The first thing every request meets, documents and errors included, as one Express middleware
 * with one listener per request: it gives the request its id (X-Request-Id), sets the constant
 * headers, refuses the request when the service is stopping or it is a browser's CORS preflight
 * (BrowserCallRefusedException says why), brings its target to origin-form
 * (answering `OPTIONS *` itself), answers 503 SERVICE_UNAVAILABLE to a request still unanswered at
 * the deadline, and reports the finished request.
 *
 * The deadline: only the database can hold a request that long (a silent network partition
 * outlasts the driver's own time-outs once a request needs several statements, or waits in the
 * pool's queue behind others), so the answer says so, and for a write, that it may have been
 * applied. Whatever the handler answers later is dropped by the exception filter.
 */
export function httpEdge({ headers, finished, inFlight, serverMethods }: EdgeOptions): RequestHandler {
  inFlight.enforceDeadline(ANSWER_DEADLINE_MS, (response) => {
    // A body still on its way is the client's delay, bounded by REQUEST_TIMEOUT_MS: the deadline counts from its end.
    if (!response.req.complete) return false;
    markDatabaseUnavailable(response, `no answer within ${ANSWER_DEADLINE_MS} ms`);
    sendApiError(response, databaseUnavailableAnswer(response.req));
    return true;
  });

  // One listener of each kind for every response, which finds its request's state from `this`.
  function onError(this: Response, cause: Error): void {
    streamErrors.set(this, cause);
  }
  // 'close' comes once, after 'finish' or instead of it when the client went away first.
  function onClose(this: Response): void {
    inFlight.finished(this);
    const done: FinishedRequest = {
      request: this.req,
      response: this,
      durationMs: performance.now() - this.req.arrivedAt,
      error: streamErrors.get(this),
    };
    for (const report of finished) report(done);
  }

  return (request: Request, response: Response, next: NextFunction): void => {
    request.arrivedAt = performance.now();
    const sent = request.headers['x-request-id'];
    // A key sent as the id would be kept and logged wherever the id is: it is no sane id.
    request.requestId = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) && !containsKey(sent) ? sent : randomUUID();
    response.setHeader('X-Request-Id', request.requestId);
    for (const [name, value] of headers) response.setHeader(name, value);
    // Without a listener, an error of the response stream would end the process.
    response.on('error', onError);
    response.on('close', onClose);

    let refused: ApiException | undefined =
      inFlight.admit(response, request.arrivedAt) ?? (isCorsPreflight(request) ? new BrowserCallRefusedException() : undefined);
    try {
      if (!refused && toOriginForm(request) === 'asterisk') {
        // OPTIONS * asks about the server as a whole: which methods it serves, as the public document says.
        response.status(204).setHeader('Allow', serverMethods().join(', '));
        response.end();
        return;
      }
    } catch (invalid) {
      refused = invalid as ApiException;
    }
    if (refused) sendApiError(response, refused);
    else next();
  };
}

/** An error of a response stream, kept for the finished request's report (rare: the client went away mid-write). */
const streamErrors = new WeakMap<Response, Error>();

/**
 * The headers a header-setting middleware (helmet) sets, read once by running it against a
 * stand-in response: they do not depend on the request, and setting a list costs far less than
 * running its dozen middleware functions on every request.
 */
export function constantHeaders(middleware: RequestHandler): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let called = false;
  middleware({ headers: {} } as Request, response as unknown as Response, () => (called = true));
  if (!called) throw new Error('constantHeaders: the middleware did not finish synchronously');
  return [...headers];
}

function isCorsPreflight(request: Request): boolean {
  return (
    request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined
  );
}
