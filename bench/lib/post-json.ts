import { request as httpRequest, type Agent } from 'node:http';
import { BenchError } from './scenario.ts';

/**
 * One JSON POST through the gateway as the bearer of `token`, on `agent`'s kept-alive connections:
 * the answer parsed, and its time from the request's start to the answer's last byte. Anything but
 * 200 rejects with the status and the start of the body.
 *
 * @example
 * const { ms, body } = await postJson<{ content: unknown[] }>(`${platform.url}/api/branch/list`, token, agent, { filter: { crProcessId: 1 } });
 */
export function postJson<T>(url: string, token: string, agent: Agent, body: unknown): Promise<{ ms: number; body: T }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const answer = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new BenchError(`POST ${url}: HTTP ${res.statusCode}: ${answer.slice(0, 300)}`));
          resolve({ ms, body: JSON.parse(answer) as T });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
