import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'psk_';
/** A sandbox's keys (DECISIONS "Sandboxes"): people and secret scanners tell them apart; the service never reads it. */
const SANDBOX_KEY_PREFIX = 'psk_test_';
/** The characters of a key a listing shows (the stored prefix column holds 16). */
const PREFIX_LENGTH = 12;
const SANDBOX_PREFIX_LENGTH = 16;

export interface NewApiKeySecret {
  /** The key itself: shown once, never stored. */
  readonly key: string;
  /** Its first characters, for telling keys apart in a listing. */
  readonly prefix: string;
  readonly hash: string;
}

/** `psk_` (a sandbox's: `psk_test_`) and 32 random bytes in base64url: 256 bits of entropy. */
export function generateApiKey(sandbox = false): NewApiKeySecret {
  const key = (sandbox ? SANDBOX_KEY_PREFIX : KEY_PREFIX) + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, sandbox ? SANDBOX_PREFIX_LENGTH : PREFIX_LENGTH), hash: hashApiKey(key) };
}

/** SHA-256, hex: what the store keeps and looks keys up by. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
