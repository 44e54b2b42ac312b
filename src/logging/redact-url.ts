/**
 * Query parameters that carry credentials by common convention (`api_key`, `x-api-key`,
 * `private_key`, `webhook_secret`, `X-Amz-Signature`, …), matched on the name without a trailing
 * `[…]`; their values never reach a log.
 */
const CREDENTIAL_PARAMETER =
  /(?:^|[-_.])(?:api[-_]?key|apikey|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|bearer|jwt|password|passwd|pwd|passphrase|secret|signature|sig|credentials?|session|code)$/i;

/** A percent-encoded base64url character: how a key's characters may be spelled in a URL. */
const ENCODED_KEY_CHARACTER = '%(?:2d|3[0-9]|4[1-9a-f]|5[0-9af]|6[1-9a-f]|7[0-9a])';

/**
 * Text shaped like one of our keys (auth/api-key-secret.ts: `psk_` and 43 base64url characters;
 * sandbox keys, `psk_test_` and 43, are longer still), wherever it stands, any of its characters
 * perhaps percent-encoded (`%70sk_…`, `psk%5F…`): what a URL or a header decodes to a key.
 */
const KEY_SHAPE = `(?:p|%70)(?:s|%73)(?:k|%6b)(?:_|%5f)(?:[\\w-]|${ENCODED_KEY_CHARACTER}){43,}`;
const KEY = new RegExp(KEY_SHAPE, 'i');
/** The shortest text a key can be (`psk_` and 43 characters): shorter text, most URLs and ids, is not searched. */
const KEY_LENGTH = 47;
const KEYS = new RegExp(KEY_SHAPE, 'gi');

/** What stands where a key was. */
export const REDACTED_KEY = 'psk_[redacted]';
/** What stands where a value was. */
export const REDACTED = '[redacted]';

/** Whether `text` holds something shaped like one of our keys. */
export function containsKey(text: string): boolean {
  return text.length >= KEY_LENGTH && KEY.test(text);
}

/** `text` with everything shaped like one of our keys replaced: for whatever is kept or printed. */
export function redactKeys(text: string): string;
export function redactKeys(text: string | null): string | null;
export function redactKeys(text: string | null): string | null {
  return text !== null && containsKey(text) ? text.replace(KEYS, REDACTED_KEY) : text;
}

/**
 * The URL as it may be logged: the values of credential-like query parameters (`api_key`,
 * `access_token`, ...) are replaced, and so is anything shaped like one of our keys, under any
 * parameter name or in the path.
 */
export function redactUrl(url: string): string {
  return redactQuery(redactKeys(url), (name) => !CREDENTIAL_PARAMETER.test(name.replace(/\[[^\]]*\]$/, '')), false);
}

/**
 * The URL as the request log keeps it: a query value only under a parameter `isKept` names (the
 * operation's own), every other value `[redacted]`, and anything shaped like one of our keys
 * replaced, wherever it stands.
 */
export function redactUrlKeeping(url: string, isKept: (name: string) => boolean): string {
  return redactQuery(redactKeys(url), isKept, true);
}

/**
 * The query's values under names `isKept` refuses replaced. A name may hide behind another's value
 * (`a=1;api_key=…`, as some parsers split): a value is kept only if every `;`-separated name in its
 * pair is. `bare`: whether a pair without `=` that is not kept is replaced whole (it may be a value).
 */
function redactQuery(url: string, isKept: (name: string) => boolean, bare: boolean): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  let redacted = false;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const end = pair.indexOf('=');
      const name = end === -1 ? pair : pair.slice(0, end);
      const hidden = pair.includes(';') ? pair.split(';').slice(1) : [];
      if (isKept(safeDecode(name)) && hidden.every((part) => isKept(safeDecode(part.split('=', 1)[0])))) return pair;
      redacted = true;
      return end === -1 && bare ? REDACTED : `${name}=${REDACTED}`;
    });
  return redacted ? `${url.slice(0, start)}?${query.join('&')}` : url;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
