import type { EntityManager } from '@mikro-orm/postgresql';
import type { identityProvider } from '@platform/contracts/core/identity-provider.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import { schemas } from '../db.ts';

export type ProviderRow = RowOf<typeof identityProvider>;

/** A provider by id, whatever its tenant (the sign-in routes name it by id alone); undefined when missing. */
export async function providerById(em: EntityManager, id: number): Promise<ProviderRow | undefined> {
  const entity = schemas.get('identity-provider');
  if (!entity) throw new Error('no entity for identity-provider');
  const row = await em.findOne(entity, { id } as never);
  return (row as ProviderRow | null) ?? undefined;
}
