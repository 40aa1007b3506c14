/**
 * One contract: each resource's declaration and its proto agree field for field and type for type,
 * and its service offers exactly the RPCs of its CRUD set (docs/interface.md#entities). TypeScript
 * already refuses a declaration that misses or adds a field of the message (defineResource); this
 * compares what it cannot tell apart (int32 and int64, a repeated field) and the RPCs.
 */
import test from 'ava';
import { loadSync, type MessageTypeDefinition, type ServiceDefinition as LoadedService } from '@grpc/proto-loader';
import { apiFields, isScalar, methodNames, offers, type FieldSpec, type Operation, type Resource } from '@platform/kit/resource/resource.ts';
import { PROTO_DIR, protoFilesOf } from '@platform/service-kit/grpc/proto-files.ts';
import { registry } from '../gateway/src/registry.ts';

const loaded = loadSync([...new Set([...protoFilesOf('core'), ...protoFilesOf('bpm'), ...protoFilesOf('dms')])], { includeDirs: [PROTO_DIR] });

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
}

/** The proto type a field of each kind travels as. */
function protoTypeOf(spec: FieldSpec): string {
  if (!isScalar(spec)) return spec.kind === 'strings' ? 'repeated TYPE_STRING' : 'repeated TYPE_MESSAGE';
  switch (spec.kind) {
    case 'long':
      return 'TYPE_INT64';
    case 'int':
      return 'TYPE_INT32';
    case 'boolean':
      return 'TYPE_BOOL';
    default:
      return 'TYPE_STRING';
  }
}

/** `platform.bpm.v1.BranchService`, from a generated method path `/platform.bpm.v1.BranchService/GetBranch`. */
function serviceNameOf(resource: Resource): string {
  const path = Object.values(resource.grpc)[0]?.path ?? '';
  return path.split('/')[1] ?? '';
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

for (const resource of registry) {
  test(`${resource.path}: the proto message has exactly the declared fields, each of the proto type its kind travels as`, (t) => {
    const packageName = serviceNameOf(resource).replace(/\.[^.]+$/, '');
    const message = loaded[`${packageName}.${resource.name}`] as MessageTypeDefinition<object, object> | undefined;
    t.truthy(message, `${packageName}.${resource.name}`);
    const fields = (message?.type as { field: FieldDescriptor[] } | undefined)?.field ?? [];
    const actual = Object.fromEntries(fields.map((field) => [field.name, field.label === 'LABEL_REPEATED' ? `repeated ${field.type}` : field.type]));
    const expected = Object.fromEntries(Object.entries(apiFields(resource)).map(([name, spec]) => [name, protoTypeOf(spec)]));
    t.deepEqual(actual, expected);
  });

  // the gateway sends If-Match as this field; a request message without it would drop it unread
  for (const operation of ['update', 'delete'] as const) {
    if (!offers(resource, operation)) continue;
    test(`${resource.path}: its ${operation} request carries the If-Match as if_match (docs/interface.md#conditional-requests)`, (t) => {
      const packageName = serviceNameOf(resource).replace(/\.[^.]+$/, '');
      const request = loaded[`${packageName}.${pascal(methodNames(resource)[operation])}Request`] as MessageTypeDefinition<object, object> | undefined;
      const fields = (request?.type as { field: (FieldDescriptor & { typeName: string })[] } | undefined)?.field ?? [];
      const ifMatch = fields.find((field) => field.name === 'ifMatch');
      // proto-loader names the type relative to the request's package: common.v1.Precondition
      t.deepEqual(ifMatch && { type: ifMatch.type, typeName: ifMatch.typeName.split('.').slice(-3).join('.'), label: ifMatch.label }, {
        type: 'TYPE_MESSAGE',
        typeName: 'common.v1.Precondition',
        label: 'LABEL_OPTIONAL',
      });
    });
  }

  test(`${resource.path}: the service offers exactly the RPCs of its CRUD set (${resource.operations})`, (t) => {
    const service = loaded[serviceNameOf(resource)] as LoadedService | undefined;
    t.truthy(service, serviceNameOf(resource));
    const rpcs = new Set(Object.keys(service ?? {}));
    const names = methodNames(resource);
    for (const operation of Object.keys(names) as Operation[]) {
      t.is(rpcs.has(pascal(names[operation])), offers(resource, operation), `${pascal(names[operation])}`);
    }
  });
}
