import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'psk_';
const PREFIX_LENGTH = KEY_PREFIX.length + 8;

export interface NewApiKeySecret {
  /** The key itself: shown once, never stored. */
  readonly key: string;
  /** Its first characters, for telling keys apart in a listing. */
  readonly prefix: string;
  readonly hash: string;
}

/** `psk_` and 32 random bytes in base64url: 256 bits of entropy. */
export function generateApiKey(): NewApiKeySecret {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** SHA-256, hex: what the store keeps and looks keys up by. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
