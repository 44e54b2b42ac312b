import { type BeforeApplicationShutdown, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Response } from 'express';
import { type ApiException, ServiceStoppingException } from '../errors/api-exception.js';

/**
 * The responses under way, so that stopping can drain keep-alive connections: Node's
 * `server.close()` closes only the idle ones, and a busy client would keep sending requests on the
 * others until the drain timeout cut them, answered or not.
 *
 * When the application closes (after SIGTERM, before the HTTP server stops listening), every
 * response not yet sent will say `Connection: close`, and a request that arrives afterwards on a
 * connection still open is refused at once (503, nothing done, `Connection: close`): no request
 * starts work once the service is stopping, and every connection ends with its last answer.
 * (Nest's own `return503OnClosing` answers outside the Error shape and leaves the responses in
 * flight keep-alive.)
 *
 * It also keeps when each request arrived, for its answer deadline: one timer for all of them,
 * every DEADLINE_CHECK_MS, rather than one of each request's own.
 */
@Injectable()
export class InFlightRequests implements BeforeApplicationShutdown, OnApplicationShutdown {
  /**
   * The responses under way, newest first, linked through themselves: a Map or Set of them made V8
   * promote every response and its headers to the old generation, about 5 KB a request
   * (docs/PERFORMANCE.md), which this list does not.
   */
  private newest?: InFlight;
  private stopping = false;
  private deadlineCheck?: NodeJS.Timeout;

  /** Takes a new request's response, or gives the error to answer it with when the service is stopping. */
  admit(response: Response, arrivedAt: number): ApiException | undefined {
    if (this.stopping) {
      response.locals.refusedWhileStopping = true;
      return new ServiceStoppingException();
    }
    const entry: InFlight = { response, since: arrivedAt, newer: undefined, older: this.newest };
    if (this.newest) this.newest.newer = entry;
    this.newest = response.inFlight = entry;
    return undefined;
  }

  /** The response is done (answered, or its client went away). */
  finished(response: Response): void {
    const entry = response.inFlight;
    if (!entry) return;
    response.inFlight = undefined;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
  }

  /**
   * Calls `overdue` once for each response still unanswered `deadlineMs` after its deadline began to
   * count, checking every DEADLINE_CHECK_MS (so within that much after); `overdue` answers true
   * when it answered the response, false to count its deadline again from now.
   */
  enforceDeadline(deadlineMs: number, overdue: (response: Response) => boolean): void {
    this.deadlineCheck = setInterval(() => {
      const now = performance.now();
      for (let entry = this.newest; entry; entry = entry.older) {
        if (now - entry.since < deadlineMs || entry.response.headersSent) continue;
        if (overdue(entry.response)) this.finished(entry.response);
        else entry.since = now;
      }
    }, DEADLINE_CHECK_MS).unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (let entry = this.newest; entry; entry = entry.older) {
      if (!entry.response.headersSent) entry.response.setHeader('Connection', 'close');
    }
  }

  /** After the server has closed: the requests it was draining kept their deadlines until then. */
  onApplicationShutdown(): void {
    clearInterval(this.deadlineCheck);
  }
}

/** A response under way, in InFlightRequests' list. */
interface InFlight {
  readonly response: Response;
  /** When (performance.now()) its answer deadline counts from. */
  since: number;
  newer: InFlight | undefined;
  older: InFlight | undefined;
}

declare module 'express-serve-static-core' {
  interface Response {
    /** Its place among the responses under way (InFlightRequests), until it is done. */
    inFlight?: InFlight;
  }
}

/** How often the answer deadlines are checked: a deadline is kept to within this much. */
const DEADLINE_CHECK_MS = 100;

/** A 503 answered because the instance was stopping: expected in every deploy, so logged at warn. */
export function isRefusedWhileStopping(response: Response): boolean {
  return response.locals.refusedWhileStopping === true;
}
