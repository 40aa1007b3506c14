import type { IncomingMessage } from 'node:http';

/** The header in which the gateway hands on the client address it judged (it overwrites any the client sent). */
export const CLIENT_IP_HEADER = 'x-platform-client-ip';

/** Who a public request's audit row names: no user, the client's address and agent. */
export function publicActor(req: IncomingMessage): { userCode: string; ipAddress: string | null; userAgent: string | null } {
  const ip = req.headers[CLIENT_IP_HEADER];
  const agent = req.headers['user-agent'];
  return {
    userCode: 'anonymous',
    ipAddress: typeof ip === 'string' && ip !== '' ? ip.slice(0, 64) : (req.socket.remoteAddress ?? null),
    userAgent: typeof agent === 'string' ? agent.slice(0, 1000) : null,
  };
}
