import type { Request } from 'express';
import { MalformedRequestException } from '../errors/api-exception.js';

/** What the edge does with a request's target, as sent on the request line. */
export type RequestTarget = 'origin' | 'asterisk';

/**
 * Brings the request target to the one form the rest of the service reads: a path (`/v1/pets?…`).
 *
 * - origin-form (`/v1/pets`) stays as it is;
 * - absolute-form (`http://host/v1/pets`, which a server must accept, RFC 9112 §3.2.2) becomes its
 *   path and query, and its authority replaces the Host header, as that section requires; the
 *   absolute URLs of the answer then follow the usual rules (PUBLIC_BASE_URL, else Host);
 * - asterisk-form (`*`) is for OPTIONS only (RFC 9112 §3.2.4), reported as `'asterisk'`.
 *
 * Anything else Node's parser let through (another scheme, credentials in the authority, `*` with
 * another method) is a 400 MALFORMED_REQUEST, as is an HTTP/1.1 request without Host (RFC 9112
 * §3.2), which Node would answer itself with a bare 400 (see boundClientConnections).
 */
export function toOriginForm(request: Request): RequestTarget {
  if (request.headers.host === undefined && request.httpVersion === '1.1') {
    throw new MalformedRequestException('An HTTP/1.1 request must carry a Host header.');
  }
  const target = request.url;
  if (target.startsWith('/')) return 'origin';
  if (target === '*') {
    if (request.method === 'OPTIONS') return 'asterisk';
    throw new MalformedRequestException('The request target * is for OPTIONS only.');
  }
  const url = URL.parse(target);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '' || url.username || url.password) {
    throw new MalformedRequestException(
      'The request target must be a path such as /v1/pets, or an absolute http(s) URL without credentials.',
    );
  }
  // Sliced from what was sent, not taken from `url`, whose parser normalises the path and drops a
  // port that is the scheme's default (https's 443, which the connection's scheme may not share).
  const authorityStart = url.protocol.length + 2;
  const authorityLength = target.slice(authorityStart).search(/[/?]|$/);
  const rest = target.slice(authorityStart + authorityLength);
  const path = rest.startsWith('/') ? rest : `/${rest}`;
  request.url = path;
  request.originalUrl = path;
  request.headers.host = target.slice(authorityStart, authorityStart + authorityLength);
  return 'origin';
}
