/**
 * A record's entity tag and the conditional headers that name it (docs/interface.md#conditional-requests).
 * The tag is the record's version, weak (`W/"3"`): it follows the record, not the bytes of one
 * serialisation of it. Tags are compared weakly (RFC 9110 §8.8.3.2), `W/` ignored, for If-Match as for
 * If-None-Match.
 */
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Precondition } from '@platform/kit/gen/platform/common/v1/common.ts';

/** Largest version a record can have (an int32 column). */
const MAX_VERSION = 2147483647;

/**
 * One list element and the comma or end after it: `*`, an entity-tag (`W/` optional, then a quoted
 * opaque tag), or nothing (an empty element, RFC 9110 §5.6.1.2: ignored), with optional whitespace.
 */
const ELEMENT = /[ \t]*(?:(\*)|(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)/y;

/** The ETag of a record at `version`: `W/"3"`. */
export function entityTagOf(version: unknown): string {
  return `W/"${typeof version === 'number' ? version : 0}"`;
}

/**
 * The condition of an If-Match or If-None-Match field value: `*` (any) or the versions its tags name
 * (a tag that is no version of ours, `"abc"` or `"03"`, names none). Undefined when the header is
 * absent; 400 SVC-SYS-2001 naming the header when it is not a list of entity-tags or a lone `*`.
 *
 * @example
 * tagCondition('If-Match', 'W/"3", "4"') // { any: false, versions: [3, 4] }
 * tagCondition('If-None-Match', '*') // { any: true, versions: [] }
 * tagCondition('If-Match', '3') // throws: Header is invalid: If-Match
 */
export function tagCondition(header: 'If-Match' | 'If-None-Match', value: string | string[] | undefined): Precondition | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  const versions: number[] = [];
  let any = false;
  let tags = 0;
  ELEMENT.lastIndex = 0;
  for (;;) {
    const element = ELEMENT.exec(text);
    if (!element) throw invalidHeader(header);
    if (element[1] !== undefined) any = true;
    if (element[1] !== undefined || element[2] !== undefined) tags++;
    const version = element[2] === undefined ? undefined : versionOf(element[2]);
    if (version !== undefined) versions.push(version);
    if (element[3] !== ',') break;
  }
  if (tags === 0 || (any && tags > 1)) throw invalidHeader(header);
  return { any, versions };
}

/** Whether a record at `version` meets the condition (a weak comparison; `*` meets any record). */
export function tagMatches(condition: Precondition, version: unknown): boolean {
  return condition.any || (typeof version === 'number' && condition.versions.includes(version));
}

/** The version an opaque tag names, if it is one the platform gives (`3`, never `03`). */
function versionOf(opaque: string): number | undefined {
  if (!/^(?:0|[1-9]\d{0,9})$/.test(opaque)) return undefined;
  const version = Number(opaque);
  return version <= MAX_VERSION ? version : undefined;
}

function invalidHeader(header: string): DomainError {
  return new DomainError('SVC-SYS-2001', 'header.invalid', { header });
}
