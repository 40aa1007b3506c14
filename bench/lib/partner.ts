import { randomBytes } from 'node:crypto';
import { expectStatus, http, type BenchPlatform } from './platform.ts';
import { BenchError } from './scenario.ts';

/**
 * A new business partner of tenant `crProcessId` (a partner code of its own), for the branches a
 * scenario reads or creates; its id.
 */
export async function benchPartner(platform: BenchPlatform, token: string, crProcessId: number): Promise<number> {
  const suffix = randomBytes(4).toString('hex').toUpperCase();
  const partner = await expectStatus(
    'POST /api/business-partner',
    http('POST', `${platform.url}/api/business-partner`, {
      headers: { authorization: `Bearer ${token}` },
      body: { crProcessId, partnerCode: `BENCH-${suffix}`, partnerName: `Bench partner ${suffix}`, partnerType: 'CUSTOMER' },
    }),
  );
  const id = (partner.json as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number') throw new BenchError(`POST /api/business-partner answered no id: ${partner.text.slice(0, 300)}`);
  return id;
}
