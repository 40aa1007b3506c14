import { Metadata } from '@grpc/grpc-js';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { CallInfo } from '../gen/platform/common/v1/call_info.ts';
import type { Language } from '../i18n/messages.ts';

/**
 * The metadata of every call the gateway (or a service) makes: the caller's token, and what is known
 * of the HTTP request behind the call as one binary entry, a CallInfo message
 * (proto/platform/common/v1/call_info.proto; docs/adr/0057-call-metadata-travels-as-one-packed.md).
 */
export const META = {
  authorization: 'authorization',
  callInfo: 'x-call-info-bin',
} as const;

/** How much of a client's address and User-Agent a service keeps. */
const MAX_CLIENT_IP = 64;
const MAX_USER_AGENT = 1000;

/** What a caller puts in a call's metadata: its token, and the CallInfo fields it knows (the proto documents each). */
export type CallMetadata = { token: string; lang: Language } & { [Field in Exclude<keyof CallInfo, 'lang'>]?: string | undefined };

/**
 * The writer every CallInfo of this process is encoded with: encoding is synchronous and `finish()`
 * hands back a copy and empties it, so one writer serves every call. A writer of its own per call
 * grew its buffer from nothing each time (128 bytes, then 256 for a request id and a User-Agent),
 * which took about half of what toMetadata cost (bench/README.md, "Work the platform's own code
 * repeated per request").
 */
const callInfoWriter = new BinaryWriter();

export function toMetadata(call: CallMetadata): Metadata {
  const message: CallInfo = {
    lang: call.lang,
    projectCode: call.projectCode ?? '',
    httpPath: call.httpPath ?? '',
    httpMethod: call.httpMethod ?? '',
    clientIp: call.clientIp?.slice(0, MAX_CLIENT_IP) ?? '',
    userAgent: call.userAgent?.slice(0, MAX_USER_AGENT) ?? '',
    requestId: call.requestId ?? '',
    idempotencyKey: call.idempotencyKey ?? '',
  };
  const info = CallInfo.encode(message, callInfoWriter).finish();
  const metadata = new Metadata();
  metadata.set(META.authorization, `Bearer ${call.token}`);
  metadata.set(META.callInfo, Buffer.from(info.buffer, info.byteOffset, info.byteLength));
  return metadata;
}

/** What a call's CallInfo says, each field undefined when not given. */
export type CallOrigin = { [Field in keyof CallInfo]?: string | undefined };

/**
 * The CallInfo a call came with. A call without one (a tool calling the service itself) or with
 * bytes that are no CallInfo reads as an empty one: the service then answers in the caller's
 * language and makes a new request id, as for a call that gave none. A field holding NUL reads as
 * not given: PostgreSQL cannot store it in the rows these values go to (text metadata could not carry it).
 */
export function callOriginOf(metadata: Metadata): CallOrigin {
  const value = metadata.get(META.callInfo)[0];
  let info: CallInfo | undefined;
  try {
    info = Buffer.isBuffer(value) ? CallInfo.decode(value) : undefined;
  } catch {
    info = undefined;
  }
  if (!info) return {};
  return {
    lang: given(info.lang),
    projectCode: given(info.projectCode),
    httpPath: given(info.httpPath),
    httpMethod: given(info.httpMethod),
    clientIp: given(info.clientIp.slice(0, MAX_CLIENT_IP)),
    userAgent: given(info.userAgent.slice(0, MAX_USER_AGENT)),
    requestId: given(info.requestId),
    idempotencyKey: given(info.idempotencyKey),
  };
}

/** A CallInfo field's value, or undefined when empty or holding NUL. */
function given(value: string): string | undefined {
  return value === '' || value.includes('\u0000') ? undefined : value;
}

/** The first string value of a metadata key. */
export function metaString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}
