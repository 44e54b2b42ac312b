import { PreconditionFailedException } from '../errors/api-exception.js';
import { entityTagOfAnswer, type IfMatch, ifMatchHolds } from '../server/entity-tag.js';

/**
 * Throws 412 PRECONDITION_FAILED, with the current ETag, unless the request's If-Match (when it
 * sent one) names `current`, the representation the API answers for the resource as it stands.
 */
export function requireIfMatch(ifMatch: IfMatch | undefined, subject: string, current: object): void {
  if (ifMatch === undefined) return;
  const tag = entityTagOfAnswer(current);
  if (!ifMatchHolds(ifMatch, tag)) throw new PreconditionFailedException(subject, tag);
}
