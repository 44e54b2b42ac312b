import type { Request } from 'express';

/** The scheme and host the client addressed, for absolute URLs in Link and Location headers. */
export function requestOrigin(request: Request): string {
  return `${request.protocol}://${request.get('host')}`;
}
