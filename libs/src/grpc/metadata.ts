import { Metadata } from '@grpc/grpc-js';
import type { Language } from '../i18n/messages.ts';
import { REQUEST_ID_HEADER } from '../log/request-id.ts';

/** Metadata keys the gateway sets on every call. */
export const META = {
  authorization: 'authorization',
  lang: 'x-lang',
  projectCode: 'x-project-code',
  httpPath: 'x-http-path',
  httpMethod: 'x-http-method',
  clientIp: 'x-client-ip',
  /** Binary: a User-Agent is any latin1 text, and text metadata must be printable ASCII. */
  userAgent: 'x-user-agent-bin',
  /** The request's id, for the service's log lines and exception entries (log/request-id.ts). */
  requestId: REQUEST_ID_HEADER,
} as const;

export interface CallMetadata {
  /** A user token, or an internal credential when no user is behind the call. */
  token: string;
  lang: Language;
  projectCode?: string | undefined;
  /** The HTTP request behind the call, for the exception log. */
  httpPath?: string | undefined;
  httpMethod?: string | undefined;
  /** The client's address as the gateway judged it, and its User-Agent, for audit rows. */
  clientIp?: string | undefined;
  userAgent?: string | undefined;
  /** The id of the HTTP request behind the call. */
  requestId?: string | undefined;
}

export function toMetadata(call: CallMetadata): Metadata {
  const metadata = new Metadata();
  metadata.set(META.authorization, `Bearer ${call.token}`);
  metadata.set(META.lang, call.lang);
  if (call.projectCode) metadata.set(META.projectCode, call.projectCode);
  if (call.httpPath) metadata.set(META.httpPath, call.httpPath);
  if (call.httpMethod) metadata.set(META.httpMethod, call.httpMethod);
  if (call.clientIp) metadata.set(META.clientIp, call.clientIp.slice(0, 64));
  if (call.userAgent) metadata.set(META.userAgent, Buffer.from(call.userAgent.slice(0, 1000), 'latin1'));
  if (call.requestId) metadata.set(META.requestId, call.requestId);
  return metadata;
}

/** The first binary value of a `-bin` metadata key, as the latin1 text it was sent as. */
export function metaLatin1(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return Buffer.isBuffer(value) ? value.toString('latin1').slice(0, 1000) : undefined;
}

/** The first string value of a metadata key. */
export function metaString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}
