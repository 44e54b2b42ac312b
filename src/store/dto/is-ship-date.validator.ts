import { ValidateBy, type ValidationOptions } from 'class-validator';

/** RFC 3339 date-time: date, `T`, time with an optional fraction, and `Z` or an offset. */
const RFC_3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/**
 * An RFC 3339 date-time that names a real instant the database can hold: the calendar date must
 * exist (JavaScript would roll 2026-02-30 over to March) and the year lies in 1000..9999, MySQL's
 * DATETIME range. A leap second (:60) is refused, as JavaScript dates cannot hold one.
 */
export function isShipDate(value: unknown): value is string {
  if (typeof value !== 'string' || !RFC_3339.test(value)) return false;
  const instant = Date.parse(value);
  if (Number.isNaN(instant) || instant < EARLIEST || instant > LATEST) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  return calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
}

export function IsShipDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isShipDate',
      validator: {
        validate: isShipDate,
        defaultMessage: () => '$property must be an RFC 3339 date-time, such as 2026-12-01T09:30:00Z, in the years 1000 to 9999',
      },
    },
    options,
  );
}
