/** A UUID in its text form (session ids, refIds), any case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
