import { Metadata } from '@grpc/grpc-js';
import type { Language } from '../i18n/messages.ts';

/** Metadata keys the gateway sets on every call. */
export const META = {
  authorization: 'authorization',
  lang: 'x-lang',
  projectCode: 'x-project-code',
  httpPath: 'x-http-path',
  httpMethod: 'x-http-method',
} as const;

export interface CallMetadata {
  /** A user token, or an internal credential when no user is behind the call. */
  token: string;
  lang: Language;
  projectCode?: string | undefined;
  /** The HTTP request behind the call, for the exception log. */
  httpPath?: string | undefined;
  httpMethod?: string | undefined;
}

export function toMetadata(call: CallMetadata): Metadata {
  const metadata = new Metadata();
  metadata.set(META.authorization, `Bearer ${call.token}`);
  metadata.set(META.lang, call.lang);
  if (call.projectCode) metadata.set(META.projectCode, call.projectCode);
  if (call.httpPath) metadata.set(META.httpPath, call.httpPath);
  if (call.httpMethod) metadata.set(META.httpMethod, call.httpMethod);
  return metadata;
}

/** The first string value of a metadata key. */
export function metaString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}
