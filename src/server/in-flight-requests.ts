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
  /** Each response under way, and when (performance.now()) its deadline counts from. */
  private readonly responses = new Map<Response, number>();
  private stopping = false;
  private deadlineCheck?: NodeJS.Timeout;

  /** Takes a new request's response, or gives the error to answer it with when the service is stopping. */
  admit(response: Response, arrivedAt: number): ApiException | undefined {
    if (this.stopping) {
      response.locals.refusedWhileStopping = true;
      return new ServiceStoppingException();
    }
    this.responses.set(response, arrivedAt);
    return undefined;
  }

  /** The response is done (answered, or its client went away). */
  finished(response: Response): void {
    this.responses.delete(response);
  }

  /**
   * Calls `overdue` once for each response still unanswered `deadlineMs` after its deadline began to
   * count, checking every DEADLINE_CHECK_MS (so within that much after); `overdue` answers true
   * when it answered the response, false to count its deadline again from now.
   */
  enforceDeadline(deadlineMs: number, overdue: (response: Response) => boolean): void {
    this.deadlineCheck = setInterval(() => {
      const now = performance.now();
      for (const [response, since] of this.responses) {
        if (now - since < deadlineMs || response.headersSent) continue;
        if (overdue(response)) this.responses.delete(response);
        else this.responses.set(response, now);
      }
    }, DEADLINE_CHECK_MS).unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const response of this.responses.keys()) if (!response.headersSent) response.setHeader('Connection', 'close');
  }

  /** After the server has closed: the requests it was draining kept their deadlines until then. */
  onApplicationShutdown(): void {
    clearInterval(this.deadlineCheck);
  }
}

/** How often the answer deadlines are checked: a deadline is kept to within this much. */
const DEADLINE_CHECK_MS = 100;

/** A 503 answered because the instance was stopping: expected in every deploy, so logged at warn. */
export function isRefusedWhileStopping(response: Response): boolean {
  return response.locals.refusedWhileStopping === true;
}
