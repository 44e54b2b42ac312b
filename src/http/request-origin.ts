import type { Request } from 'express';
import { ValidationFailedException } from '../errors/api-exception.js';

/** The Express setting that holds PUBLIC_BASE_URL (ending in /v1), set by createApp. */
export const PUBLIC_BASE_URL_SETTING = 'petstore public base url';

/**
 * The absolute URL of `path` (the API path as the request addressed it, `/v1/…`, query included),
 * for Location and Link headers. Under PUBLIC_BASE_URL when it is set, whatever the request's Host;
 * otherwise from the request's scheme and host, which Express reads from X-Forwarded-Proto and
 * X-Forwarded-Host only when TRUST_PROXY trusts the hop. A Host that cannot form a URL (missing,
 * `a b`, `[`, a port past 65535) is a 400: the answer would otherwise carry a broken URL.
 */
export function absoluteUrl(request: Request, path: string): string {
  const base: string | undefined = request.app.get(PUBLIC_BASE_URL_SETTING);
  return base === undefined ? requestOrigin(request) + path : base + path.replace(/^\/v1(?=[/?]|$)/, '');
}

function requestOrigin(request: Request): string {
  const host = request.host;
  const origin = host === undefined ? null : URL.parse(`${request.protocol}://${host}`);
  if (origin === null || origin.host === '' || origin.pathname !== '/' || origin.search || origin.hash || origin.username) {
    throw new ValidationFailedException('The Host header must name a host (and port) that forms a valid URL.');
  }
  return origin.origin;
}
