import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';
import type { Scope } from './scopes.js';

const REALM = 'Bearer realm="petstore"';

export class ApiKeyMissingException extends ApiException {
  constructor(message = 'An API key is required: send it as Authorization: Bearer <API_KEY>.') {
    super(HttpStatus.UNAUTHORIZED, 'API_KEY_MISSING', message, { 'WWW-Authenticate': REALM });
  }
}

/**
 * A browser's CORS preflight (OPTIONS with Origin and Access-Control-Request-Method). The API is for
 * servers: its keys are secrets that must never sit in a page, so it grants no origin, and says so
 * to the developer who tried (a preflight never carries a key, so this is its 401).
 */
export class BrowserCallRefusedException extends ApiKeyMissingException {
  constructor() {
    super(
      'This API does not answer browsers (no CORS): an API key is a secret that must stay on a server. ' +
        'Call the API from your back end, with Authorization: Bearer <API_KEY>.',
    );
  }
}

/**
 * A key past its expiry, or past the overlap of a roll: its own code, so that an integrator can tell
 * "expired" from "wrong key" and fetch the successor rather than page someone.
 */
export class ApiKeyExpiredException extends ApiException {
  constructor(expiredAt: Date) {
    super(
      HttpStatus.UNAUTHORIZED,
      'API_KEY_EXPIRED',
      `The API key expired at ${expiredAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}; use the key that replaced it, or ask for a new one.`,
      { 'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="The API key expired"` },
    );
  }
}

/** One answer for unknown and revoked keys alike, so the answer reveals nothing about a key. */
export class ApiKeyInvalidException extends ApiException {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, 'API_KEY_INVALID', 'The API key is not valid.', {
      'WWW-Authenticate': `${REALM}, error="invalid_token"`,
    });
  }
}

/** RFC 6750 §3.1: the key is good, its scopes do not cover the operation; the header names the scope needed. */
export class InsufficientScopeException extends ApiException {
  /**
   * `required`: every scope the request needs; the message names those the key lacks (all of them,
   * when `held` is not given), and what needs them (`needer`: the operation, or what the request asked for).
   */
  constructor(required: readonly Scope[], held?: ReadonlySet<Scope>, needer = 'this operation needs') {
    super(HttpStatus.FORBIDDEN, 'INSUFFICIENT_SCOPE', insufficientScopeMessage(required, held, needer), {
      'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${required.join(' ')}"`,
    });
  }
}

/**
 * A sandbox's key on an operation that manages sandboxes (DECISIONS "Sandboxes"): whatever scopes it
 * holds, only a live key makes, lists and deletes sandboxes, so test code can never remove its own
 * sandbox's siblings or make more of them.
 */
export class SandboxKeyRefusedException extends ApiException {
  constructor(required: readonly Scope[]) {
    super(
      HttpStatus.FORBIDDEN,
      'INSUFFICIENT_SCOPE',
      "A sandbox's API keys (psk_test_…) cannot manage sandboxes: use a live key (psk_…) that holds " + `${required.join(' and ')}.`,
      { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${required.join(' ')}"` },
    );
  }
}

/** "This API key does not hold the scope pets:read, which this operation needs." (the scopes, when it lacks more than one). */
export function insufficientScopeMessage(required: readonly Scope[], held?: ReadonlySet<Scope>, needer = 'this operation needs'): string {
  const missing = held ? required.filter((scope) => !held.has(scope)) : required;
  const named = missing.length === 1 ? `the scope ${missing[0]}` : `the scopes ${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  return `This API key does not hold ${named}, which ${needer}.`;
}
