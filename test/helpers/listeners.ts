import { readFile } from 'node:fs/promises';

/**
 * The local addresses of the TCP sockets listening on `port`, read from /proc/net/tcp and tcp6:
 * `a.b.c.d` for IPv4, `v6:<hex>` for IPv6 (`v6:00000000000000000000000000000000` is `::`). What the
 * kernel says was bound, whatever a process logged.
 *
 * @example
 * await listeners(50054) // ['127.0.0.1']
 */
export async function listeners(port: number): Promise<string[]> {
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      // 0A: LISTEN
      if (!local || state !== '0A') continue;
      const [hex, portHex] = local.split(':');
      if (Number.parseInt(portHex ?? '', 16) !== port) continue;
      // an IPv4 address is four bytes, little-endian
      found.push(
        hex?.length === 8
          ? (hex.match(/../g) ?? [])
              .reverse()
              .map((byte) => Number.parseInt(byte, 16))
              .join('.')
          : `v6:${hex}`,
      );
    }
  }
  return found;
}
