/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750; the scheme word is
 * case-insensitive), or undefined when the header carries no bearer credential.
 */
export function readBearerToken(authorization: string | undefined): string | undefined {
  const match = /^bearer[ \t]+(\S.*)$/i.exec(authorization?.trim() ?? '');
  return match?.[1].trim();
}
