import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { HeadersObject } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import bodyParser from 'body-parser';
import type { NextFunction, Request, Response } from 'express';
import typeis from 'type-is';
import { MalformedJsonException, BodyTooLargeException, BodyNotJsonException, ValidationFailedException } from '../errors/api-exception.js';

/**
 * The largest valid body, and a little more: metadata at its maximum (50 keys of 40 characters whose
 * values are 500 four-byte characters) is about 100 KB as UTF-8 (DECISIONS: 128 KiB from 1.5.1; 16 KiB
 * refused 33 keys of 500).
 */
export const BODY_LIMIT_BYTES = 128 * 1024;
/**
 * No body of the API nests deeper than 2; 128 KiB of `[` nests 65,000 deep, which overflows the stack
 * of everything that walks a value recursively (class-transformer, class-validator, JSON.stringify).
 */
export const MAX_BODY_DEPTH = 32;

/** The errors a route that reads a JSON body can answer (readJsonBody), for its document (ApiErrorResponses). */
export const JSON_BODY_ERRORS = {
  MALFORMED_JSON: 'The body is not JSON.',
  UNSUPPORTED_MEDIA_TYPE: 'The body was not sent as application/json.',
  PAYLOAD_TOO_LARGE: 'The body is larger than 128 KiB.',
} as const;

/** The media type of the API's bodies. */
export const JSON_TYPES = ['application/json'] as const;
/** A JSON Merge Patch (RFC 7396), as PATCH takes it, or plain JSON, as most clients send it. */
export const MERGE_PATCH_TYPES = ['application/merge-patch+json', 'application/json'] as const;
/** RFC 5789 §3.1: the patch documents a PATCH resource takes, on its answers and on the refusal of another. */
export const ACCEPT_PATCH = { 'Accept-Patch': MERGE_PATCH_TYPES.join(', ') } as const;
/** The Accept-Patch header of a PATCH resource's answers, for the document. */
export const ACCEPT_PATCH_HEADER: HeadersObject = {
  'Accept-Patch': {
    description: 'RFC 5789: the patch documents PATCH takes here (a JSON Merge Patch, or plain JSON).',
    schema: { type: 'string', enum: [ACCEPT_PATCH['Accept-Patch']] },
  },
};

const parser = bodyParser.json({
  limit: BODY_LIMIT_BYTES,
  // Any JSON value is accepted here; the validation pipe says what a body must be.
  strict: false,
  type: () => true,
});

/**
 * Reads a request's JSON body into `request.body`, refusing what is not JSON, larger than 128 KiB
 * or nested too deep. Routes read their body after the global guards, so that a request without a
 * valid key is refused before a byte of its body is read (Nest's own body parser, which runs before
 * routing and guards, is switched off in createApp). The parsing itself is body-parser's.
 */
export async function readJsonBody(request: Request, response: Response, types: readonly string[] = JSON_TYPES): Promise<void> {
  if (!carriesBody(request)) return;
  // RFC 5789 §2.2: every refusal of a PATCH's body for its media type (charset and encoding too) says what it takes.
  const refusal: Record<string, string> = request.method === 'PATCH' ? { 'Accept-Patch': types.join(', ') } : {};
  if (!typeis(request, [...types])) {
    throw new BodyNotJsonException(`A request body must be sent with Content-Type: ${types.join(' or ')}.`, refusal);
  }
  await new Promise<void>((resolve, reject) => {
    const done: NextFunction = (error?: unknown) => (error ? reject(toApiException(error, refusal)) : resolve());
    parser(request, response, done);
  });
  if (nestsDeeperThan(request.body, MAX_BODY_DEPTH)) {
    throw new ValidationFailedException(`The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`);
  }
}

/**
 * Has the parser read one body, at start: what it decodes with (iconv-lite's encodings) is loaded
 * on its first use, from node_modules, which `npm ci` beside a running service deletes and
 * reinstalls; every JSON body was a 400 meanwhile.
 */
export async function loadJsonBodyParser(): Promise<void> {
  const body = Buffer.from('{}');
  const request = Object.assign(Readable.from([body]), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) },
  });
  await new Promise<void>((resolve, reject) =>
    parser(request as never, {} as never, (error?: unknown) => (error ? reject(error) : resolve())),
  );
}

/** For a route that takes a JSON body: admits the request once its body has been read (readJsonBody). */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    await readJsonBody(request, response);
    return true;
  }
}

/** Whether a parsed JSON value has objects or arrays nested more than `limit` deep; iterative, so depth cannot overflow it. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** An empty body (Content-Length: 0) is no body, whatever its Content-Type. */
function carriesBody(request: Request): boolean {
  return typeis.hasBody(request) && request.headers['content-length'] !== '0';
}

/** body-parser's errors carry a `type` naming what went wrong; `refusal`, the headers of a refused media type. */
function toApiException(error: unknown, refusal: Record<string, string>): unknown {
  switch ((error as { type?: string }).type) {
    case 'entity.parse.failed':
      return new MalformedJsonException();
    case 'entity.too.large':
      return new BodyTooLargeException(BODY_LIMIT_BYTES);
    case 'charset.unsupported':
      return new BodyNotJsonException('The request body must be UTF-8 encoded JSON.', refusal);
    case 'encoding.unsupported':
      return new BodyNotJsonException('The Content-Encoding of the request body is not supported.', refusal);
    case 'request.aborted':
    case 'request.size.invalid':
      return new ValidationFailedException('The request body was incomplete.');
    default:
      // A body that does not decode under its Content-Encoding (say, gzip that is not gzip) fails
      // in zlib, and body-parser passes that on as a 400 without a type.
      return (error as { status?: number }).status === 400
        ? new MalformedJsonException('The request body could not be decoded with its Content-Encoding.')
        : error;
  }
}
