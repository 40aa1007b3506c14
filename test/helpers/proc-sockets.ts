import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * A process's TCP sockets as Linux shows them (/proc/net/tcp and tcp6, /proc/<pid>/fd), without a
 * tool: which process listens on a port, and which of a process's connections go to a port.
 */

/** One row of /proc/net/tcp{,6}. */
export interface TcpEntry {
  localPort: number;
  remotePort: number;
  /** The kernel's state, hexadecimal: `0A` listening, `01` established. */
  state: string;
  inode: string;
}

const LISTEN = '0A';

/** Every TCP socket of this network namespace, IPv4 and IPv6. */
export function tcpEntries(): TcpEntry[] {
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields.length > 9)
      .map((fields) => ({
        localPort: portOf(fields[1] ?? ''),
        remotePort: portOf(fields[2] ?? ''),
        state: fields[3] ?? '',
        inode: fields[9] ?? '',
      })),
  );
}

/** The inodes of the sockets a process holds open (`socket:[inode]` links in /proc/<pid>/fd). */
export function socketInodesOf(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = readLinkOrNone(`/proc/${pid}/fd/${fd}`);
    const inode = /^socket:\[(\d+)\]$/.exec(target ?? '')?.[1];
    if (inode) inodes.add(inode);
  }
  return inodes;
}

/** The process that holds the socket listening on TCP `port`, when one of this user's does. */
export function listenerPid(port: number): number | undefined {
  const listening = new Set(
    tcpEntries()
      .filter((e) => e.state === LISTEN && e.localPort === port && e.inode !== '0')
      .map((e) => e.inode),
  );
  if (listening.size === 0) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let inodes: Set<string>;
    try {
      inodes = socketInodesOf(pid);
    } catch {
      continue; // another user's process, or one that just ended
    }
    if ([...inodes].some((inode) => listening.has(inode))) return pid;
  }
  return undefined;
}

/** The connections process `pid` holds whose far end is TCP port `remotePort`. */
export function connectionsTo(pid: number, remotePort: number): TcpEntry[] {
  const held = socketInodesOf(pid);
  return tcpEntries().filter((e) => e.remotePort === remotePort && held.has(e.inode));
}

function portOf(address: string): number {
  return Number.parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
}

function readLinkOrNone(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined; // closed between the listing and the read
  }
}
