import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, defer, map, type Observable } from 'rxjs';
import { ValidationFailedException } from '../errors/api-exception.js';
import { IdempotentRequest } from './idempotency.repository.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's Idempotency-Key, for the service to create once with (IdempotencyRepository.createOnce). */
    idempotency?: IdempotentRequest;
  }
}

/** 1 to 255 printable ASCII characters, bare or as a quoted string (RFC 8941 sf-string). */
export function parseIdempotencyKey(header: string): string {
  const key = /^".*"$/.test(header) ? header.slice(1, -1) : header;
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new ValidationFailedException('Idempotency-Key must be 1 to 255 printable ASCII characters.');
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
 * Makes a POST safe to retry: with an Idempotency-Key, the first request runs and its response is
 * stored (per API key, 24 hours); a retry with the same body gets that response again with
 * `Idempotent-Replayed: true` and creates nothing. Without the header nothing changes. The key is
 * read and checked here, and claimed by the service (createOnce) once the body has been validated,
 * so a request refused for its body costs the records nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();

    // The claim belongs to the API key: the request pipeline authenticates before any route's interceptor.
    if (!request.apiKey) throw new Error('IdempotencyInterceptor ran on a request that was not authenticated');
    const key = parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
    const idempotency = new IdempotentRequest(request.apiKey.keyId, key, requestFingerprint(request.method, request.path, request.body));
    request.idempotency = idempotency;
    return next.handle().pipe(
      map((body: unknown) => {
        if (idempotency.replayed) context.switchToHttp().getResponse<Response>().setHeader('Idempotent-Replayed', 'true');
        return body;
      }),
      // Only a stored success is replayed; a failed request frees its key for the retry.
      catchError((error: unknown) =>
        defer(async () => {
          await idempotency.claim?.release().catch(() => undefined);
          throw error;
        }),
      ),
    );
  }
}
