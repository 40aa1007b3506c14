/**
 * Event type patterns of a subscription (docs/interface.md#webhooks): `branch.updated` names one
 * type, `branch.*` every type of the entity, `*` alone every event. A pattern must match a type of
 * the event catalogue (libs/contracts/src/events.ts): one that matches none would never fire
 * (`acrual.*`), so it is refused rather than kept.
 */
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { EVENT_TYPES } from '@platform/contracts/events.ts';

const PATTERN = /^(\*|[a-z][a-z0-9-]*\.(\*|[a-z][a-z0-9-]*))$/;

/**
 * The patterns given, checked and without repeats: 400 SVC-SYS-2001 naming the first bad item,
 * one not of the grammar or one matching no type of the catalogue.
 */
export function checkedPatterns(patterns: readonly string[]): string[] {
  if (patterns.length === 0) throw invalidField('eventTypes', 'field.required');
  patterns.forEach((pattern, index) => {
    if (!PATTERN.test(pattern)) throw invalidField(`eventTypes[${index}]`, 'webhook.eventType');
    if (!EVENT_TYPES.some((type) => matches([pattern], type))) throw invalidField(`eventTypes[${index}]`, 'webhook.eventTypeUnknown');
  });
  return [...new Set(patterns)];
}

/** Whether an event of `type` (`branch.updated`) is one a subscription to `patterns` receives. */
export function matches(patterns: readonly string[], type: string): boolean {
  const entity = type.slice(0, type.lastIndexOf('.'));
  return patterns.some((pattern) => pattern === '*' || pattern === type || pattern === `${entity}.*`);
}
