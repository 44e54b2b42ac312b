import type { Response } from 'express';
import { type ApiException, PreconditionFailedException, ValidationFailedException } from '../errors/api-exception.js';
import { sendApiError } from '../errors/api-exception.filter.js';
import { HttpAnswer } from './answers.js';
import { AnsweringExpressAdapter } from '../platform/nest-express-reply.js';
import { entityTagOf, failedPrecondition, parseEntityTags } from './entity-tag.js';

/**
 * Nest's Express adapter, which lets an answer (HttpAnswer) write its headers before it is sent.
 * This is the work Nest's interceptors would do after a handler, without the observables and the
 * async resource Nest builds around every interceptor of every request (docs/PERFORMANCE.md): the
 * request path's one hook after the handler (AnsweringExpressAdapter). It also keeps the routes
 * registered through it, in Express's order (the route table reads them).
 */
export class ApiExpressAdapter extends AnsweringExpressAdapter {
  private readonly registered: RegisteredRoute[] = [];

  /** Every route registered through the adapter (Nest's, the documents'), in the order Express tries them. */
  get routes(): readonly RegisteredRoute[] {
    return this.registered;
  }

  // Nest registers each route of a controller through the adapter method of its verb (HttpServer).
  override get(...route: unknown[]): unknown {
    return this.register('GET', route, super.get);
  }
  override post(...route: unknown[]): unknown {
    return this.register('POST', route, super.post);
  }
  override put(...route: unknown[]): unknown {
    return this.register('PUT', route, super.put);
  }
  override patch(...route: unknown[]): unknown {
    return this.register('PATCH', route, super.patch);
  }
  override delete(...route: unknown[]): unknown {
    return this.register('DELETE', route, super.delete);
  }
  override head(...route: unknown[]): unknown {
    return this.register('HEAD', route, super.head);
  }
  override options(...route: unknown[]): unknown {
    return this.register('OPTIONS', route, super.options);
  }
  override all(...route: unknown[]): unknown {
    return this.register(ALL_METHODS, route, super.all);
  }
  override search(...route: unknown[]): unknown {
    return this.register('SEARCH', route, super.search);
  }
  override query(...route: unknown[]): unknown {
    return this.register('QUERY', route, super.query);
  }
  override propfind(...route: unknown[]): unknown {
    return this.register('PROPFIND', route, super.propfind);
  }
  override proppatch(...route: unknown[]): unknown {
    return this.register('PROPPATCH', route, super.proppatch);
  }
  override mkcol(...route: unknown[]): unknown {
    return this.register('MKCOL', route, super.mkcol);
  }
  override copy(...route: unknown[]): unknown {
    return this.register('COPY', route, super.copy);
  }
  override move(...route: unknown[]): unknown {
    return this.register('MOVE', route, super.move);
  }
  override lock(...route: unknown[]): unknown {
    return this.register('LOCK', route, super.lock);
  }
  override unlock(...route: unknown[]): unknown {
    return this.register('UNLOCK', route, super.unlock);
  }

  private register(method: string, route: unknown[], add: (...route: never[]) => unknown): unknown {
    if (typeof route[0] === 'string' && route.length > 1) this.registered.push({ method, path: route[0] });
    return add.apply(this, route as never[]);
  }

  protected answer(response: Response, body: unknown, statusCode: number | undefined): unknown {
    const page = body instanceof HttpAnswer && body.linkIsTagged;
    const answer = body instanceof HttpAnswer ? body.writeHeaders(response) : body;
    if (!isJsonAnswer(answer)) return this.nestReply(response, answer, statusCode);
    // Written here rather than by Express's json() and send(), which parse and rebuild the
    // Content-Type and ask whether the request is fresh on every answer: an answer's validator
    // is its ETag, set and compared here.
    const json = JSON.stringify(answer);
    if (statusCode !== undefined) response.statusCode = statusCode;
    if (response.statusCode < 300) {
      const conditional = evaluateRead(response, json, page);
      if (conditional === 'not modified') {
        response.statusCode = 304;
        return response.end();
      }
      if (conditional !== undefined) return sendApiError(response, conditional);
    }
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    // Node sends no body in answer to HEAD.
    return response.end(json);
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A route registered with the adapter: a path pattern and the method it answers, or ALL_METHODS. */
export interface RegisteredRoute {
  readonly method: string;
  readonly path: string;
}

/** The method of a route registered with `all`: it answers every one. */
export const ALL_METHODS = '*';

/**
 * Tags a successful answer `json` (a page with its Link header: the next page is part of it; a
 * single resource's tag is its JSON's alone, as a change's preconditions compare it) and, for a GET
 * or HEAD answered 200, evaluates its preconditions in RFC 9110 §13.2.2's order: an If-Match that
 * does not name the tag is a 412 (a malformed one a 400), then an If-None-Match that names it a
 * 304, with the tag and no body. A malformed If-None-Match is ignored, as RFC 9110 allows: the 200
 * follows. Changes evaluate theirs on the resource as read (http/preconditions.ts).
 */
function evaluateRead(response: Response, json: string, page: boolean): 'not modified' | ApiException | undefined {
  const link = page ? response.getHeader('Link') : undefined;
  const tag = entityTagOf(json, Array.isArray(link) ? link.join(', ') : (link as string | undefined));
  response.setHeader('ETag', tag);
  const { method, headers } = response.req;
  const ifMatch = headers['if-match'];
  const ifNoneMatch = headers['if-none-match'];
  if ((ifMatch === undefined && ifNoneMatch === undefined) || response.statusCode !== 200 || (method !== 'GET' && method !== 'HEAD'))
    return undefined;
  const preconditions = {
    ifMatch: ifMatch === undefined ? undefined : parseEntityTags(ifMatch),
    ifNoneMatch: ifNoneMatch === undefined ? undefined : parseEntityTags(ifNoneMatch),
  };
  if (ifMatch !== undefined && preconditions.ifMatch === undefined)
    return new ValidationFailedException('If-Match must be * or a list of entity tags as the ETag header gives them ("…").');
  const failed = failedPrecondition(preconditions, tag);
  if (failed === 'If-Match') return new PreconditionFailedException(page ? 'page' : 'resource', tag, failed, false);
  return failed === 'If-None-Match' ? 'not modified' : undefined;
}

/** A handler's answer sent as JSON: an object or an array (not a stream, a buffer or nothing). */
function isJsonAnswer(answer: unknown): answer is object {
  return typeof answer === 'object' && answer !== null && (Array.isArray(answer) || Object.getPrototypeOf(answer) === Object.prototype);
}
