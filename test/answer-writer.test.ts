/**
 * libs/service-kit/src/grpc/answer-writer.ts: a service encodes the record answers of its resources (get, create,
 * update) with one writer per process instead of the generated serializer's writer per message. The
 * bytes on the wire must be the generated serializer's, for every resource's record, whatever was
 * encoded before, and an answer already handed to grpc-js must not change when the next is encoded.
 */
import test from 'ava';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { answersWith, encodeAnswer } from '@platform/service-kit/grpc/answer-writer.ts';
import type { BinaryWriter } from '@bufbuild/protobuf/wire';
import { toMessage } from '@platform/service-kit/crud/handlers.ts';
import { toMessageValue } from '@platform/kit/resource/values.ts';
import { allFields, isScalar, methodNames, offers, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';

const resources: readonly Resource[] = [...bpmResources, ...coreResources, ...dmsResources];

/** A row with every field of the resource set, each string `length` characters long (multi-byte ones included). */
function fullRow(resource: Resource, length: number): Row {
  const row: Row = {};
  for (const [name, spec] of Object.entries(allFields(resource))) {
    if (isScalar(spec)) row[name] = valueOf(spec, length);
  }
  return row;
}

/** The record message of such a row, with two items in each list of objects (the hooks' part in a real answer). */
function fullMessage(resource: Resource, length: number): Record<string, unknown> {
  const message = toMessage(resource, fullRow(resource, length));
  for (const [name, spec] of Object.entries(allFields(resource))) {
    if (isScalar(spec)) continue;
    if (spec.kind === 'strings') {
      message[name] = ['x'.repeat(length), 'y'];
      continue;
    }
    const item = Object.fromEntries(Object.entries(spec.of).map(([field, of]) => [field, toMessageValue(of, valueOf(of, length))]));
    message[name] = [item, item];
  }
  return message;
}

function valueOf(spec: ScalarField, length: number): unknown {
  switch (spec.kind) {
    case 'long':
      return Number.MAX_SAFE_INTEGER;
    case 'int':
      return -7;
    case 'boolean':
      return true;
    case 'decimal':
      return '123456789012345.1234';
    case 'date':
      return '2026-02-28';
    case 'datetime':
      return new Date('2026-11-27T04:30:00.123Z');
    default:
      return 'ä€'.repeat(length / 2);
  }
}

/** The methods of a resource that answer its record, by grpc-js name. */
function recordMethods(resource: Resource): string[] {
  const names = methodNames(resource);
  return (['get', 'create', 'update'] as const).filter((operation) => offers(resource, operation)).map((operation) => names[operation]);
}

test("every record answer is the generated serializer's bytes, after a larger and a smaller one", (t) => {
  let compared = 0;
  for (const resource of resources) {
    const served = answersWith(resource.grpc, Object.fromEntries(recordMethods(resource).map((name) => [name, resource.encoder])));
    for (const name of recordMethods(resource)) {
      const generated = resource.grpc[name]!.responseSerialize;
      const ours = served[name]!.responseSerialize;
      t.not(ours, generated, `${resource.path}.${name} is served with the shared writer`);
      // a long record first (its length prefixes take more than one byte), then a short one, then an empty one
      for (const length of [40_000, 8, 0]) {
        const message = fullMessage(resource, length);
        const expected = generated(message);
        t.true(expected.length > 0 || length === 0);
        t.deepEqual(ours(message), expected, `${resource.path}.${name} with strings of ${length}`);
        compared++;
      }
    }
    for (const name of Object.keys(resource.grpc).filter((method) => !recordMethods(resource).includes(method))) {
      t.is(served[name]!.responseSerialize, resource.grpc[name]!.responseSerialize, `${resource.path}.${name} keeps its generated serializer`);
    }
  }
  t.true(compared >= resources.length * 3);
});

test('an answer already encoded keeps its bytes when the next one is encoded', (t) => {
  const [resource] = resources;
  const first = encodeAnswer(resource!.encoder, fullMessage(resource!, 300));
  const copy = Buffer.from(first);
  encodeAnswer(resource!.encoder, fullMessage(resource!, 2_000));
  t.deepEqual(first, copy);
});

test('an encoder that fails half-way leaves nothing behind for the next answer', (t) => {
  const resource = resources[0]!;
  const message = fullMessage(resource, 20);
  const failing = {
    encode(value: unknown, writer?: BinaryWriter) {
      writer!.uint32(10).string('written before the failure');
      throw new Error(`cannot encode ${typeof value}`);
    },
  };
  t.throws(() => encodeAnswer(failing, message), { message: 'cannot encode object' });
  t.deepEqual(encodeAnswer(resource.encoder, message), resource.grpc[methodNames(resource).get]!.responseSerialize(message));
});

test('naming a method the service lacks is refused', (t) => {
  const [resource] = resources;
  t.throws(() => answersWith(resource!.grpc, { getNothing: resource!.encoder }), { message: 'the service has no method getNothing' });
});
