import { MARK_LEAKPROOF } from '@platform/service-kit/db/leakproof.ts';
import { withClient } from './pg-client.ts';

/**
 * Marks the lists' filter functions LEAKPROOF in the database of `url` (libs/service-kit/src/db/leakproof.ts,
 * docs/adr/0151-row-level-security-the-second-wall.md), so that its filters keep their indexes
 * under row-level security: for a launcher that runs the server as its superuser (the embedded
 * PostgreSQL, the tests' and the benches' fresh databases). A user that may not (42501, not a
 * superuser) leaves them as they are: the services then say so at start.
 */
export async function markLeakproof(url: string): Promise<void> {
  await withClient(url, async (client) => {
    try {
      await client.query(MARK_LEAKPROOF.join('; '));
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
    }
  });
}
