import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
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
 */
@Injectable()
export class InFlightRequests implements BeforeApplicationShutdown {
  private readonly responses = new Set<Response>();
  private stopping = false;

  /** Takes a new request's response, or gives the error to answer it with when the service is stopping. */
  admit(response: Response): ApiException | undefined {
    if (this.stopping) {
      response.locals.refusedWhileStopping = true;
      return new ServiceStoppingException();
    }
    this.responses.add(response);
    return undefined;
  }

  /** The response is done (answered, or its client went away). */
  finished(response: Response): void {
    this.responses.delete(response);
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const response of this.responses) if (!response.headersSent) response.setHeader('Connection', 'close');
  }
}

/** A 503 answered because the instance was stopping: expected in every deploy, so logged at warn. */
export function isRefusedWhileStopping(response: Response): boolean {
  return response.locals.refusedWhileStopping === true;
}
