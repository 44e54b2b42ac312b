import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiResponse, type HeadersObject } from '@nestjs/swagger';
import type { Request } from 'express';
import { errorResponses } from '../openapi/api-error-responses.decorator.js';
import { readChangePreconditions } from './entity-tag.js';

const ETAG_SAMPLE = '`"3x8Qv0Kp2sT7mW1aZyB4cD"`';

/** The ETag header of an answer, for the document. */
export const ETAG_HEADER: HeadersObject = {
  ETag: {
    description:
      'A strong entity tag of this representation (RFC 9110), such as ' +
      `${ETAG_SAMPLE}: send it back as \`If-None-Match\` to be told \`304 Not Modified\` when nothing changed, or as ` +
      '`If-Match` so that a change applies only to what you saw.',
    schema: { type: 'string' },
  },
};

/**
 * The document's side of a read answered with an ETag (RFC 9110 §13.2.2): `If-None-Match` naming it
 * is answered `304 Not Modified` (no body, the ETag), so that a client who polls pays for no body
 * when nothing changed; an `If-Match` that does not name it, `412`. Every successful JSON answer is
 * tagged and its preconditions evaluated as it is sent (http/api-express-adapter.ts). No example:
 * a tool would send it unasked.
 */
export function TaggedRead(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: `The ETag of the representation you hold (such as ${ETAG_SAMPLE}), or \`*\`: answered \`304 Not Modified\` when it is still current.`,
      schema: { type: 'string' },
    }),
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: `An ETag (such as ${ETAG_SAMPLE}), or \`*\`: answered \`412 PRECONDITION_FAILED\`, with the current ETag, unless it names the current representation.`,
      schema: { type: 'string' },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the representation named by `If-None-Match` is current.',
      headers: ETAG_HEADER,
    }),
    ...errorResponses({ PRECONDITION_FAILED: 'The `If-Match` names no current representation.' }),
  );
}

/**
 * The document's side of a change to a single resource that honours the preconditions (RFC 9110
 * §13.1.1, §13.1.2): the service makes it only while `If-Match` names the current representation
 * (`*`: any), and not while `If-None-Match` names it (`*`: any), else `412 PRECONDITION_FAILED`
 * with the current ETag, changing nothing (RequestPreconditions hands it the fields).
 */
export function ChangesConditionally(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        `The ETag of the representation you decided on (such as ${ETAG_SAMPLE}), or \`*\`: the change applies only if it is still ` +
        'current, else `412 PRECONDITION_FAILED` with the current `ETag`, and nothing changes. Without it the change applies to ' +
        'whatever is current.',
      schema: { type: 'string' },
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'ETags, or `*`: the change applies only if none of them is current (`*`: only if the resource does not exist, so it ' +
        'never applies), else `412 PRECONDITION_FAILED` with the current `ETag`, and nothing changes.',
      schema: { type: 'string' },
    }),
    ...errorResponses({
      PRECONDITION_FAILED: 'The `If-Match` names no current representation, or the `If-None-Match` names the current one; nothing changed.',
    }),
  );
}

/** The request's If-Match and If-None-Match; 400 when one is malformed (after authentication, as a parameter). */
export const RequestPreconditions = createParamDecorator((_: unknown, context: ExecutionContext) =>
  readChangePreconditions(context.getArgByIndex<Request>(0).headers),
);
