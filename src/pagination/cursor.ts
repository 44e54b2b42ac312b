import { createHash } from 'node:crypto';
import { ValidationFailedException } from '../errors/api-exception.js';
import { isStorableInstant } from '../validation/date-time.js';

/** The filter a listing was made with. */
export type ListFilter = Readonly<Record<string, string | undefined>>;

const CHECK_BYTES = 6;

/**
 * An opaque keyset cursor: the last id of a page, which listing it belongs to and that listing's
 * filter, in base64url, with a check so that a broken or edited cursor is refused, as is one from
 * another listing or filter. The check is a plain digest, not a secret (anyone can make a cursor
 * that passes it): a secret would have to be configured alike on every instance and kept across
 * restarts, and a forged cursor can name no row a client cannot page to. So every field a cursor
 * decodes to is validated as a client's value is (decodePosition): a forged one is a 400, never a
 * position the database cannot take.
 */
export function encodeCursor(after: number | TimePosition, listing: string, filter: ListFilter): string {
  const payload = Buffer.from(JSON.stringify([after, scope(listing, filter)])).toString('base64url');
  return `${payload}.${check(payload)}`;
}

/** The id a page continues after; 400 VALIDATION_FAILED when the cursor is not one of ours for this listing. */
export function decodeCursor(cursor: string, listing: string, filter: ListFilter): number {
  return decodePosition(cursor, listing, filter, (after): after is number => isId(after));
}

/**
 * A position in a listing newest first: the time (ms since the epoch, in the years 1000 to 9999
 * as a DATETIME holds it) and the row id of the last item of a page.
 */
export type TimePosition = readonly [number, number];

/** The time and row a page newest first continues after (a TimePosition); 400 as decodeCursor. */
export function decodeTimeCursor(cursor: string, listing: string, filter: ListFilter): TimePosition {
  return decodePosition(
    cursor,
    listing,
    filter,
    (after): after is TimePosition => Array.isArray(after) && after.length === 2 && isStorableInstant(after[0]) && isId(after[1]),
  );
}

function decodePosition<P>(cursor: string, listing: string, filter: ListFilter, isPosition: (after: unknown) => after is P): P {
  const [payload, tag, ...rest] = cursor.split('.');
  if (payload && tag && rest.length === 0 && tag === check(payload)) {
    const [after, key] = parse(Buffer.from(payload, 'base64url').toString());
    if (isPosition(after) && key === scope(listing, filter)) return after;
  }
  throw new ValidationFailedException('cursor is not valid for this listing: use the URL of a Link rel="next" header as it is.');
}

/** An id as the service assigns them: an integer from 1 to 2^53-1. */
function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function parse(json: string): [unknown, unknown] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : [undefined, undefined];
  } catch {
    return [undefined, undefined];
  }
}

/**
 * The listing and the filters given, as the cursor's check covers them. In the order the listing's
 * service names its filters, which is always the same (bench:alloc: sorting them cost a page 0.8 KB).
 */
function scope(listing: string, filter: ListFilter): string {
  let given = '';
  for (const name in filter) if (filter[name] !== undefined) given += `${given ? '&' : ''}${name}=${filter[name]}`;
  return `${listing}?${given}`;
}

function check(payload: string): string {
  return createHash('sha256').update(payload).digest().subarray(0, CHECK_BYTES).toString('base64url');
}
