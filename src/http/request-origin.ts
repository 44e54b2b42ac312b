import type { Request } from 'express';
import { ValidationFailedException } from './api-exception.js';

/**
 * The scheme and host the client addressed, for absolute URLs in Link and Location headers. A
 * request whose Host cannot form a URL (missing, `a b`, `[`, a port past 65535) is a 400: the
 * answer would otherwise carry a broken URL, or fail building it.
 */
export function requestOrigin(request: Request): string {
  const host = request.get('host');
  const origin = host === undefined ? null : URL.parse(`${request.protocol}://${host}`);
  if (origin === null || origin.host === '' || origin.pathname !== '/' || origin.search || origin.hash || origin.username) {
    throw new ValidationFailedException('The Host header must name a host (and port) that forms a valid URL.');
  }
  return origin.origin;
}
