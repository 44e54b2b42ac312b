import type { Request } from 'express';

/** The address failed authentications are counted against (the connection's peer). */
export function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
