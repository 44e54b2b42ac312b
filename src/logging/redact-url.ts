/** Query parameters that carry credentials by common convention; their values never reach a log. */
const CREDENTIAL_PARAMETER =
  /^(?:api[-_]?key|apikey|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|bearer|password|passwd|pwd|secret|client[-_]?secret|signature|sig|session|code)$/i;

/** One of our API keys (`psk_` and 43 base64url characters), its `_` perhaps percent-encoded, wherever it stands. */
const API_KEY_SHAPE = /psk(?:_|%5f)[\w-]{43,}/gi;

/**
 * The URL as it may be logged: the values of credential-like query parameters (`api_key`,
 * `access_token`, ...) are replaced, and so is anything shaped like one of our keys, under any
 * parameter name or in the path. The usual request costs two string searches.
 */
export function redactUrl(url: string): string {
  return redactParameters(/psk/i.test(url) ? url.replace(API_KEY_SHAPE, 'psk_[redacted]') : url);
}

function redactParameters(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  let redacted = false;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const end = pair.indexOf('=');
      const name = end === -1 ? pair : pair.slice(0, end);
      if (!CREDENTIAL_PARAMETER.test(safeDecode(name))) return pair;
      redacted = true;
      return `${name}=[redacted]`;
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
