import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { type ApiException, PreconditionFailedException, ValidationFailedException } from '../errors/api-exception.js';
import { sendApiError } from '../errors/api-exception.filter.js';
import { HttpAnswer } from './answers.js';
import { entityTagOf, failedPrecondition, parseEntityTags } from './entity-tag.js';

/**
 * Nest's Express adapter, which lets an answer (HttpAnswer) write its headers before it is sent.
 * This is the work Nest's interceptors would do after a handler, without the observables and the
 * async resource Nest builds around every interceptor of every request (docs/PERFORMANCE.md): the
 * request path's one hook after the handler.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const page = body instanceof HttpAnswer && body.linkIsTagged;
    const answer = body instanceof HttpAnswer ? body.writeHeaders(response) : body;
    if (!isJsonAnswer(answer)) return super.reply(response, answer, statusCode);
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
