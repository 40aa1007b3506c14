/**
 * The event catalogue (docs/interface.md#events): every type of event the services write into their
 * outboxes, the record it is about and what its changes name. A type is `<entity>.<what>`: the
 * entity is the resource's path (or `session`), so an event's entity follows from its type.
 *
 * The CRUD events follow from the resource declarations: `<path>.created`, `.updated`, `.deleted`
 * for each write its CRUD set offers (the engine writes them, libs/service-kit/src/crud/handlers.ts). The moves'
 * own are declared here, the accrual's from its state machine (bpm/accrual-moves.ts).
 *
 * `recordEvent` (libs/service-kit/src/events/outbox.ts) is typed by it: the type must be one of these and the
 * changes may name only the fields the type's declaration allows, else the call does not compile.
 * A webhook subscription's patterns are checked against it (core-svc/src/webhooks/event-types.ts).
 */
import type { FieldChange } from '@platform/service-kit/events/outbox.ts';
import { type COMMON_FIELDS, offers, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { ACCRUAL_MOVES, recordedFields } from './bpm/accrual-moves.ts';
import { bpmResources } from './bpm/index.ts';
import { coreResources } from './core/index.ts';
import { dmsResources } from './dms/index.ts';

/** The resources of the three services, whose records events are about. */
const RESOURCES = [...coreResources, ...bpmResources, ...dmsResources] as const;
type AnyResource = (typeof RESOURCES)[number];
type ResourcePath = AnyResource['path'];

/** The entities events are about: every resource, and sessions (no resource of the registry). */
export type EventEntity = ResourcePath | 'session';

/** One event type as the catalogue declares it. */
export interface EventDeclaration {
  /** The entity whose record it is about: its type's first part. */
  entity: EventEntity;
  /** When it is written, in the interface's words. */
  when: string;
  /** The fields its changes may name: all the record shows (`record`), or these alone. */
  changes: 'record' | readonly string[];
}

/** The writes of a CRUD set, each with its event's last part. */
const CRUD_EVENTS = [
  ['create', 'created', 'a create'],
  ['update', 'updated', 'an update'],
  ['delete', 'deleted', 'a delete'],
] as const satisfies readonly (readonly [Operation, string, string])[];

type CrudWhat<O> = O extends 'full' | 'no-stats' ? 'created' | 'updated' | 'deleted' : O extends 'no-create' ? 'updated' | 'deleted' : never;
type CrudEventOf<R> = R extends { path: infer P extends string; operations: infer O } ? `${P}.${CrudWhat<O>}` : never;

/** `<path>.created|updated|deleted` for each write a resource's CRUD set offers. */
export type CrudEventType = CrudEventOf<AnyResource>;

type AccrualMoveOf = (typeof ACCRUAL_MOVES)[keyof typeof ACCRUAL_MOVES];
type AccrualMoveEvent = AccrualMoveOf['event'];
/** What the move of event `T` changes: the state, and what it records. */
type AccrualMoveFields<T> =
  Extract<AccrualMoveOf, { event: T }> extends infer M extends AccrualMoveOf
    ? 'accrualStatus' | M['at'] | (M extends { by: infer B } ? B : never) | (M extends { given: { field: infer F } } ? F : never)
    : never;

/** Moves outside the CRUD set's own types: a write with its own event, or an event without a CRUD write. */
const MOVE_EVENTS = {
  'dms-file.uploaded': { entity: 'dms-file', when: 'an upload made the file (every field it set)', changes: 'record' },
  'dms-file.moved': {
    entity: 'dms-file',
    when: 'the category move (`PUT /api/dms-file/{id}/category`), and a matching rule filing a file without a category (actor `svc:dms`)',
    changes: ['categoryId'],
  },
  'dms-file.legal-hold-set': { entity: 'dms-file', when: 'an update that sets `legalHold` (with the other fields it changed)', changes: 'record' },
  'dms-file.legal-hold-released': { entity: 'dms-file', when: 'an update that clears `legalHold` (with the other fields it changed)', changes: 'record' },
  'dms-file.purged': { entity: 'dms-file', when: 'retention purged the file (actor `svc:dms`)', changes: ['originalFileName'] },
  'dms-share-link.accessed': {
    entity: 'dms-share-link',
    when: 'a streamed public download (actor `anonymous`; `downloadCount` when it was counted; HEAD and 416 write none)',
    changes: ['downloadCount'],
  },
  'user-info.demoted': { entity: 'user-info', when: 'an update that takes `superUser` away', changes: 'record' },
  'user-info.second-factor-enrolled': { entity: 'user-info', when: 'the user confirmed a TOTP secret (at the login or on its security page)', changes: [] },
  'user-info.second-factor-disabled': { entity: 'user-info', when: 'the user turned its second factor off', changes: [] },
  'user-info.second-factor-reset': {
    entity: 'user-info',
    when: "a user administrator removed the user's second factor (the actor is the administrator)",
    changes: [],
  },
  'user-info.password-changed': { entity: 'user-info', when: '`POST /api/auth/change-password` (no changes: the password never enters an event)', changes: [] },
  'user-process.select-removed': {
    entity: 'user-process',
    when: 'an update whose selects lose an account (`userProcessSelects`, account numbers sorted)',
    changes: 'record',
  },
  'session.ended': {
    entity: 'session',
    when: 'logout, or `active: false` over the API key; key the session id (a session has no history path)',
    changes: ['active', 'logoutAt'],
  },
} as const satisfies Record<string, EventDeclaration>;

/** Words a CRUD type's row adds, where more than the engine writes it. */
const CRUD_ALSO: Partial<Record<CrudEventType, string>> = {
  'dms-file.deleted': 'and a retention soft delete (`deleted` false to true, actor `svc:dms`)',
  'dms-share-link.deleted': 'and each link of a file retention purges (`fileId` to null)',
  'webhook-subscription.updated': 'and a secret rotation (no changes), and the platform disabling it (`status`, `disabledAt`, `disabledReason`)',
  'user-process.created': '(with `userProcessSelects`, `from` null)',
  'user-process.updated': '(with `userProcessSelects` when the selects change; one that loses an account is `user-process.select-removed`)',
};

/** Every event type the services write. */
export type EventType = CrudEventType | AccrualMoveEvent | keyof typeof MOVE_EVENTS;

type FieldsOfPath<P> = Extract<AnyResource, { path: P }> extends Resource<infer F> ? (keyof typeof COMMON_FIELDS | keyof F) & string : never;
type EntityOf<T> = T extends `${infer E}.${string}` ? (E extends EventEntity ? E : never) : never;
type DeclaredChanges<T> = T extends keyof typeof MOVE_EVENTS
  ? (typeof MOVE_EVENTS)[T]['changes']
  : T extends AccrualMoveEvent
    ? readonly AccrualMoveFields<T>[]
    : 'record';

/** The fields an event of type `T` may name in its changes. */
export type ChangeField<T extends EventType> = DeclaredChanges<T> extends readonly (infer F)[] ? F & string : FieldsOfPath<EntityOf<T>>;

/** An event's changes, as its type's declaration allows them. */
export type ChangesOf<T extends EventType> = [ChangeField<T>] extends [never] ? Record<string, never> : Partial<Record<ChangeField<T>, FieldChange>>;

/** Each type's changes, as recordEvent takes them. */
type CatalogueChanges = { [T in EventType]: ChangesOf<T> };

// names inside resolve in the outbox module's scope first (its own EventType): only this alias is used
declare module '@platform/service-kit/events/outbox.ts' {
  interface EventRegister {
    catalogue: CatalogueChanges;
  }
}

/** The catalogue, in the order the interface lists it: each resource's CRUD types and moves, then sessions. */
export const EVENT_CATALOGUE: ReadonlyMap<EventType, EventDeclaration> = new Map(
  [...RESOURCES.flatMap((resource) => eventsOf(resource)), ...entriesOf('session')].map(([type, declaration]) => [type, declaration]),
);

/** Every type of the catalogue. */
export const EVENT_TYPES: readonly EventType[] = [...EVENT_CATALOGUE.keys()];

function eventsOf(resource: AnyResource): [EventType, EventDeclaration][] {
  const path: ResourcePath = resource.path;
  const crud = CRUD_EVENTS.filter(([operation]) => offers(resource, operation)).map(([, what, words]): [EventType, EventDeclaration] => {
    const type = `${path}.${what}` as CrudEventType;
    return [type, { entity: path, when: [words, CRUD_ALSO[type]].filter(Boolean).join(' '), changes: 'record' }];
  });
  return [...crud, ...(path === 'accrual' ? accrualMoveEntries() : []), ...entriesOf(path)];
}

function entriesOf(entity: EventEntity): [EventType, EventDeclaration][] {
  return (Object.entries(MOVE_EVENTS) as [keyof typeof MOVE_EVENTS, EventDeclaration][]).filter(([, declaration]) => declaration.entity === entity);
}

/** The accrual's moves' events, from its state machine: the state and what the move records. */
function accrualMoveEntries(): [EventType, EventDeclaration][] {
  return Object.entries(ACCRUAL_MOVES).map(([name, move]) => [
    move.event,
    {
      entity: 'accrual',
      when: `\`POST /api/accrual/{id}/${name}\`: ${move.from.join(' or ')} to ${move.to}`,
      changes: ['accrualStatus', ...recordedFields(move)],
    },
  ]);
}

/** Whether `text` names a type of the catalogue. */
export function isEventType(text: string): text is EventType {
  return EVENT_CATALOGUE.has(text as EventType);
}
