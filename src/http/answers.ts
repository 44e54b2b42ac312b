import type { Response } from 'express';
import { absoluteUrl } from './request-origin.js';

/**
 * What a handler answers when its answer carries headers of its own beside the JSON body: a page's
 * Link, a created resource's Location, a replay's Idempotent-Replayed. The controller returns it;
 * the adapter (ApiExpressAdapter) has it write its headers just before the body is sent, tags the
 * body, and sends it. The one hook after a handler: no interceptor on the request path.
 */
export abstract class HttpAnswer {
  /** Whether the answer's Link header is part of what its ETag names (a page's next page is). */
  readonly linkIsTagged: boolean = false;

  /** Sets the answer's headers on `response` and says what is sent as its JSON body. */
  abstract writeHeaders(response: Response): object;
}

/** Set on an answer that is the one stored for an earlier request with the same Idempotency-Key. */
const REPLAYED = ['Idempotent-Replayed', 'true'] as const;

/** A resource a POST created: 201 (the route's HttpCode), with `Location`, its absolute URL in the collection posted to. */
export class Created<T extends { readonly id: number | string }> extends HttpAnswer {
  constructor(
    readonly resource: T,
    /** The stored answer to an earlier request with the same Idempotency-Key: the same Location as a fresh one. */
    readonly replayed = false,
  ) {
    super();
  }

  writeHeaders(response: Response): T {
    const { req } = response;
    response.setHeader('Location', absoluteUrl(req, `${req.path.replace(/\/$/, '')}/${this.resource.id}`));
    if (this.replayed) response.setHeader(...REPLAYED);
    return this.resource;
  }
}

/** An existing resource as a change left it, or as it stood, for a replay of the change. */
export class Changed<T extends object> extends HttpAnswer {
  constructor(
    readonly resource: T,
    readonly replayed = false,
  ) {
    super();
  }

  writeHeaders(response: Response): T {
    if (this.replayed) response.setHeader(...REPLAYED);
    return this.resource;
  }
}
