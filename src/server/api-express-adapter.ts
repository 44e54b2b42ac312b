import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { entityTagOf, noneMatchHits, readEntityTags } from './entity-tag.js';

/**
 * What writes the headers that depend on a handler's answer (a created resource's `Location`), and
 * says what is sent in its place, just before it is sent. A route sets one on the request before
 * its handler runs (`request.answerWriter`); an answer may also be one itself (a page of a listing).
 */
export interface AnswerWriter {
  writeAnswer(response: Response, answer: unknown): unknown;
}

/** An answer that writes its own headers and says what is sent in its place (pagination's Page). */
export abstract class SelfWrittenAnswer {
  abstract writeAnswer(response: Response): unknown;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The writer of this request's answer, when its route has one (CreatesResource). */
    answerWriter?: AnswerWriter;
  }
}

/**
 * Nest's Express adapter, which lets an answer's writers add their headers before it is sent. This
 * is the work Nest's interceptors would do after a handler, without the observables and the async
 * resource Nest builds around every interceptor of every request (docs/PERFORMANCE.md): the
 * request path's one hook after the handler.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const writer = response.req.answerWriter;
    let answer = writer ? writer.writeAnswer(response, body) : body;
    const page = answer instanceof SelfWrittenAnswer;
    if (answer instanceof SelfWrittenAnswer) answer = answer.writeAnswer(response);
    if (!isJsonAnswer(answer)) return super.reply(response, answer, statusCode);
    // Written here rather than by Express's json() and send(), which parse and rebuild the
    // Content-Type and ask whether the request is fresh on every answer: an answer's validator
    // is its ETag, set and compared here.
    const json = JSON.stringify(answer);
    if (statusCode !== undefined) response.statusCode = statusCode;
    if (response.statusCode < 300 && notModified(response, json, page)) return response.end();
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    // Node sends no body in answer to HEAD.
    return response.end(json);
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Tags a successful answer `json` (a page with its Link header: the next page is part of it; a
 * single resource's tag is its JSON's alone, as If-Match compares it) and says whether it is a 304
 * instead: a GET or HEAD whose If-None-Match names the tag (RFC 9110 §13.1.2), answered with the tag
 * and no body. An If-None-Match that is no list of tags is ignored, as RFC 9110 allows: the 200 follows.
 */
function notModified(response: Response, json: string, page: boolean): boolean {
  const link = page ? response.getHeader('Link') : undefined;
  const tag = entityTagOf(json, Array.isArray(link) ? link.join(', ') : (link as string | undefined));
  response.setHeader('ETag', tag);
  const { method, headers } = response.req;
  const field = headers['if-none-match'];
  if (field === undefined || response.statusCode !== 200 || (method !== 'GET' && method !== 'HEAD')) return false;
  const ifNoneMatch = readEntityTags(field);
  if (ifNoneMatch === undefined || !noneMatchHits(ifNoneMatch, tag)) return false;
  response.statusCode = 304;
  return true;
}

/** A handler's answer sent as JSON: an object or an array (not a stream, a buffer or nothing). */
function isJsonAnswer(answer: unknown): answer is object {
  return typeof answer === 'object' && answer !== null && (Array.isArray(answer) || Object.getPrototypeOf(answer) === Object.prototype);
}
