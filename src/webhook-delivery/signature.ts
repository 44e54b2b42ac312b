import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret, as the Standard Webhooks specification writes them: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under each secret (the current one first; the
 * previous one too while a rotation overlaps), space-separated: the `webhook-signature` header of the
 * Standard Webhooks specification. Five lines of node:crypto, so the service needs no library for it;
 * the tests verify with the specification's own.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: number, body: string): string {
  const content = `${messageId}.${timestamp}.${body}`;
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'))
          .update(content)
          .digest('base64')}`,
    )
    .join(' ');
}
