import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { ValidationFailedException } from '../errors/api-exception.js';
import { containsKey } from '../logging/redact-url.js';
import { IdempotentRequest } from './idempotency.js';

/**
 * 1 to 255 printable ASCII characters, bare or as a quoted string (RFC 8941 sf-string), and not
 * an API key: an Idempotency-Key is stored, logged and carried by events, where no key may be.
 */
export function parseIdempotencyKey(header: string): string {
  const key = /^".*"$/.test(header) ? header.slice(1, -1) : header;
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new ValidationFailedException('Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  if (containsKey(key)) {
    throw new ValidationFailedException(
      'Idempotency-Key must not hold an API key (psk_…): it is stored and shown; revoke the key it holds.',
    );
  }
  return key;
}

/** "The same request": method, path and body, whose objects' members may come in any order. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, path, body ?? null], membersInNameOrder))
    .digest('hex');
}

/** A JSON.stringify replacer that writes every object's members sorted by name. */
function membersInNameOrder(_name: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The request's Idempotency-Key, read and checked, with what makes a retry "the same request"; none
 * when it came without the header. Read before anything is created; the key is claimed by the write
 * (Idempotency, a participant of the UnitOfWork) once the body has been validated, so a request
 * refused for its body costs the records nothing.
 */
export function idempotentRequest(request: Request, { takesBody = true }: { takesBody?: boolean } = {}): IdempotentRequest | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  // The claim belongs to the API key: the request pipeline authenticates before any route's guard.
  if (!request.apiKey) throw new Error('an Idempotency-Key was read on a request that was not authenticated');
  const key = parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
  // A body a route does not take changes nothing, so it does not make a retry another request.
  const body = takesBody ? request.body : undefined;
  return new IdempotentRequest(
    request.apiKey.environment,
    request.apiKey.keyId,
    key,
    requestFingerprint(request.method, request.path, body),
  );
}
