import { PreconditionFailedException } from '../errors/api-exception.js';
import { entityTagOfAnswer, failedPrecondition, type Preconditions } from './entity-tag.js';

/**
 * Throws 412 PRECONDITION_FAILED, with the current ETag, when a precondition the request sent
 * fails for `current`, the representation the API answers for the resource as it stands: an
 * If-Match that does not name it, or an If-None-Match that does (`*`: it exists). RFC 9110 §13.2.2.
 */
export function requirePreconditions(preconditions: Preconditions, subject: string, current: object): void {
  if (preconditions.ifMatch === undefined && preconditions.ifNoneMatch === undefined) return;
  const tag = entityTagOfAnswer(current);
  const failed = failedPrecondition(preconditions, tag);
  if (failed) throw new PreconditionFailedException(subject, tag, failed);
}
