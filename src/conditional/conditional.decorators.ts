import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiResponse, type HeadersObject } from '@nestjs/swagger';
import type { Request } from 'express';
import { errorResponses } from '../docs/api-error-responses.decorator.js';
import { readIfMatch } from '../server/entity-tag.js';

/** The ETag header of an answer, for the document. */
export const ETAG_HEADER: HeadersObject = {
  ETag: {
    description:
      'A strong entity tag of this representation (RFC 9110): send it back as `If-None-Match` to be told `304 Not Modified` ' +
      'when nothing changed, or as `If-Match` so that a change applies only to what you saw.',
    schema: { type: 'string', example: '"3x8Qv0Kp2sT7mW1aZyB4cD"' },
  },
};

const ETAG_EXAMPLE = '"3x8Qv0Kp2sT7mW1aZyB4cD"';

/**
 * The document's side of a read answered with an ETag: with `If-None-Match` naming it, `304 Not
 * Modified` (no body, the ETag), so that a client who polls pays for no body when nothing changed.
 * Every successful JSON answer is tagged, as it is sent (server/api-express-adapter.ts).
 */
export function TaggedRead(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of the representation you hold (or `*`): answered `304 Not Modified` when it is still current.',
      schema: { type: 'string' },
      example: ETAG_EXAMPLE,
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the representation named by `If-None-Match` is current.',
      headers: ETAG_HEADER,
    }),
  );
}

/**
 * The document's side of a change to a single resource that honours `If-Match` (RFC 9110 §13.1.1):
 * the service makes it only to the representation named (`*`: to whatever is current), else `412
 * PRECONDITION_FAILED` with the current ETag, changing nothing (IfMatchHeader hands it the field).
 */
export function ChangesIfMatch(): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'The ETag of the representation you decided on (or `*`): the change applies only if it is still current, ' +
        'else `412 PRECONDITION_FAILED` with the current `ETag`, and nothing changes. Without it the change applies to ' +
        'whatever is current.',
      schema: { type: 'string' },
      example: ETAG_EXAMPLE,
    }),
    ...errorResponses({ PRECONDITION_FAILED: 'The `If-Match` names a representation that is no longer current; nothing changed.' }),
  );
}

/** The request's If-Match, or undefined when it came without one; 400 when it is malformed (after authentication, as a parameter). */
export const IfMatchHeader = createParamDecorator((_: unknown, context: ExecutionContext) =>
  readIfMatch(context.getArgByIndex<Request>(0).headers['if-match']),
);
