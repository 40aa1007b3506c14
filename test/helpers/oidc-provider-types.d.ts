// oidc-provider ships no types; what test/helpers/oidc-provider.ts uses of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface FoundAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?(ctx: unknown, id: string): Promise<FoundAccount | undefined> });
    on(event: string, listener: (ctx: unknown, error: unknown) => void): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
