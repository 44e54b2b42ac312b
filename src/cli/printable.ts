import { redactKeys } from '../logging/redact-url.js';

/**
 * Stored text as the operator's terminal may show it: key-shaped text redacted (entries 1.5.0 wrote
 * may hold some), and every control character escaped (C0, DEL, C1, which some terminals read as
 * ESC [, and the line and bidirectional controls of Unicode), and the backslash that escapes them.
 */
export function printable(text: string): string {
  return redactKeys(text).replace(
    // eslint-disable-next-line no-control-regex -- the control characters are what it finds
    /[\\\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (character) => ESCAPES[character] ?? escapeCode(character.charCodeAt(0)),
  );
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCode(code: number): string {
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
