/**
 * The live accesses a process has read, each with the access stamp its statement saw
 * (docs/adr/0062-a-kept-live-access-and-its-access.md): an entry is used again only
 * after a statement has read the same stamp, so it never stands for a state a fresh read would not
 * find. Bounded in entries and in age; an entry past its session's expiry is never handed out.
 */
export interface KeptAccess {
  /** The access stamp read in the same snapshot as the access. */
  stamp: number;
  superUser: boolean;
  tenantHeld: boolean;
  /** Of the roles asked (the entry's key names them), those held. */
  roles: string[];
  /** The session's expires_at, in ms since the epoch. */
  expiresAt: number;
  /** When the entry was read (Date.now()). */
  readAt: number;
}

/** The token's identity and tenant, and the roles asked: what one entry answers for. */
export interface AccessKey {
  userCode: string;
  sid: string;
  tokenVersion: number;
  crProcessId: number;
}

export class AccessCache {
  private readonly entries = new Map<string, KeptAccess>();
  /** The newest stamp any statement of this process has read: an entry of an older one is stale. */
  private newest = -1;

  /** Entries kept at most; past it the oldest goes. */
  private readonly limit: number;
  /** An entry older than this (ms) is read again in full. */
  private readonly maxAgeMs: number;

  constructor(limit = 10_000, maxAgeMs = 60_000) {
    this.limit = limit;
    this.maxAgeMs = maxAgeMs;
  }

  /** The entry's key: NUL never occurs in a user code, a session id or a role code. */
  static keyOf(claims: AccessKey, roles: ReadonlySet<string>): string {
    let key = `${claims.userCode}\0${claims.sid}\0${claims.tokenVersion}\0${claims.crProcessId}`;
    for (const role of roles) key += `\0${role}`;
    return key;
  }

  /**
   * The entry to check against the stamp, or undefined (and dropped) when there is none that could
   * serve: past the session's expiry or its own age, or older than a stamp already read.
   */
  candidate(key: string, now: number): KeptAccess | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (kept.expiresAt <= now || now - kept.readAt > this.maxAgeMs || kept.stamp < this.newest) {
      this.entries.delete(key);
      return undefined;
    }
    return kept;
  }

  /** A stamp a statement read: entries older than it will not be checked again. */
  saw(stamp: number): void {
    if (stamp > this.newest) this.newest = stamp;
  }

  keep(key: string, access: KeptAccess): void {
    // A full read that saw an older stamp than one already read ran on an older snapshot, or the
    // counter started again (a database restored): either way the stamp's check decides, and a
    // newest value no statement will read again would drop every entry unchecked.
    if (access.stamp < this.newest) this.newest = access.stamp;
    else this.saw(access.stamp);
    this.entries.delete(key);
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, access);
  }

  drop(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
