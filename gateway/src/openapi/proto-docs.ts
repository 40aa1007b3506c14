import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

/** One field of a proto message as the API document needs it: its JSON name, type and comment. */
export interface ProtoField {
  name: string;
  /** The scalar type (`string`, `int64`, `bool`, ...) or the full name of a message or enum. */
  type: string;
  repeated: boolean;
  /** Has presence (proto3 `optional`, or a message): may be unset, which the JSON shows as null. */
  optional: boolean;
  comment: string | undefined;
}

/**
 * The `//` comments of the proto contracts (proto/platform/**), read with protobufjs's parser, so
 * that the API document's descriptions come from the one place that states them (conventions:
 * "a `//` comment above every message and field, which also feeds the API document").
 *
 * @example
 * const docs = loadProtoDocs();
 * docs.rpc(BranchServiceService.getBranch)                 // "Returns one Branch."
 * docs.field('platform.bpm.v1.Branch', 'branchCode')     // "Unique within the partner."
 */
export interface ProtoDocs {
  message(fullName: string): string | undefined;
  field(message: string, field: string): string | undefined;
  /** The fields of a message, JSON (lowerCamel) names, in declaration order. */
  fields(message: string): ProtoField[];
  /** The comment of a generated method's RPC, found by its path (`/platform.bpm.v1.BranchService/GetBranch`). */
  rpc(method: { readonly path: string }): string | undefined;
}

const PROTO_DIR = join(ROOT_DIR, 'proto');

/** Every .proto file under proto/platform, relative to proto/. */
function protoFiles(): string[] {
  return readdirSync(join(PROTO_DIR, 'platform'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.proto'))
    .map((file) => join('platform', file))
    .sort();
}

/** Parses the contracts once; `alternateCommentMode` keeps plain line comments, not only doc blocks. */
export function loadProtoDocs(): ProtoDocs {
  const root = new protobuf.Root();
  // google/protobuf/* come bundled with protobufjs; the platform's own files live under proto/
  root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : join(PROTO_DIR, target));
  root.loadSync(protoFiles(), { alternateCommentMode: true, keepCase: false });
  root.resolveAll();

  const type = (name: string): protobuf.Type | undefined => {
    const found = root.lookup(name);
    return found instanceof protobuf.Type ? found : undefined;
  };
  const clean = (comment: string | null | undefined) => comment?.trim() || undefined;

  return {
    message: (name) => clean(type(name)?.comment),
    field: (message, field) => clean(type(message)?.fields[field]?.comment),
    fields: (message) =>
      (type(message)?.fieldsArray ?? []).map((field) => ({
        name: field.name,
        type: field.resolvedType ? field.resolvedType.fullName.replace(/^\./, '') : field.type,
        repeated: field.repeated,
        optional: !field.repeated && (field.hasPresence || field.resolvedType instanceof protobuf.Type),
        comment: clean(field.comment),
      })),
    rpc: ({ path }) => {
      const [service = '', method = ''] = path.slice(1).split('/');
      const found = root.lookup(service);
      return found instanceof protobuf.Service ? clean(found.methods[method]?.comment) : undefined;
    },
  };
}
