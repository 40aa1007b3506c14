/**
 * `Date.prototype.toISOString`'s text (`2024-03-05T12:34:56.123Z`), built from the date's UTC
 * parts: about half the CPU of the built-in, which a list of a million rows pays twice a row
 * (createdAt, updatedAt) in the service. A year outside 1000–9999 and an invalid date go to the
 * built-in itself (a six-digit year, a RangeError), so the answer is always the built-in's.
 *
 * @example
 * isoDateTime(new Date(Date.UTC(2024, 2, 5, 12, 34, 56, 123))) // "2024-03-05T12:34:56.123Z"
 */
export function isoDateTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}
