import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

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
    if (answer instanceof SelfWrittenAnswer) answer = answer.writeAnswer(response);
    if (!isJsonAnswer(answer)) return super.reply(response, answer, statusCode);
    // Written here rather than by Express's json() and send(), which parse and rebuild the
    // Content-Type and ask whether the request is fresh on every answer: no answer of the API has
    // a validator (no ETag, no Last-Modified), so none is ever fresh.
    const json = JSON.stringify(answer);
    if (statusCode !== undefined) response.statusCode = statusCode;
    response.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.setHeader('Content-Length', Buffer.byteLength(json));
    // Node sends no body in answer to HEAD.
    return response.end(json);
  }
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A handler's answer sent as JSON: an object or an array (not a stream, a buffer or nothing). */
function isJsonAnswer(answer: unknown): answer is object {
  return typeof answer === 'object' && answer !== null && (Array.isArray(answer) || Object.getPrototypeOf(answer) === Object.prototype);
}
