// The rule alone: the key tool reads dates too, and starts faster without class-validator (is-date-time.validator.ts).

/**
 * RFC 3339 date-time (5.6): date, `T`, time with an optional fraction, and `Z` or an offset; `T` and
 * `Z` in either case. No other ISO 8601 form (week or ordinal dates, basic format, no offset):
 * class-validator's IsISO8601 took `2026-W48-2`, which JavaScript's Date cannot read.
 */
const RFC_3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/** Whether `instant` (ms since the epoch) is a whole millisecond in the years 1000 to 9999: what DATETIME(3) and a Date both hold. */
export function isStorableInstant(instant: unknown): instant is number {
  return typeof instant === 'number' && Number.isInteger(instant) && instant >= EARLIEST && instant <= LATEST;
}

/**
 * The one rule for every date-time a client sends (DECISIONS "Dates"): an RFC 3339 date-time that
 * names a real instant the database can hold. The calendar date must exist (JavaScript would roll
 * 2026-02-30 over to March) and the instant lies in the years 1000 to 9999, MySQL's DATETIME range.
 * A leap second (:60) is refused, as JavaScript dates cannot hold one.
 */
export function isDateTime(value: unknown): value is string {
  if (typeof value !== 'string' || !RFC_3339.test(value)) return false;
  if (!isStorableInstant(Date.parse(value))) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

/** The instant a client's date-time names, when it is one under the rule (isDateTime); else undefined. */
export function parseDateTime(value: string): Date | undefined {
  return isDateTime(value) ? new Date(value) : undefined;
}

/** The document's statement of the rule, for every date-time property a client sends. */
export const DATE_TIME_PROPERTY = {
  type: 'string',
  format: 'date-time',
  // The years 1000 to 9999, an offset (Z or ±hh:mm), T and Z in either case: RFC 3339 5.6 and no other ISO 8601 form.
  pattern: '^[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$',
} as const;

/** What the document says of that rule, after what the date-time means. */
export const DATE_TIME_RULE =
  'An RFC 3339 date-time with an offset (`Z` or `+hh:mm`; `T` and `Z` in either case) in the years 1000 to 9999; ' +
  'no other ISO 8601 form (week dates, ordinal dates, basic format, no offset). Answered in UTC with milliseconds.';
