/** Query parameters that carry credentials by common convention; their values never reach a log. */
const CREDENTIAL_PARAMETER =
  /^(?:api[-_]?key|apikey|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|bearer|password|passwd|pwd|secret|client[-_]?secret|signature|sig|session|code)$/i;

/**
 * The URL as it may be logged: the values of credential-like query parameters (`api_key`,
 * `access_token`, ...) are replaced. Paths are logged as sent; the query is rewritten only when it
 * holds such a parameter, so the usual request costs one string search.
 */
export function redactUrl(url: string): string {
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
