/**
 * The services that own a schema, in dependency order (core first: bpm and dms read core's views),
 * and each one's entities and migrations as its `db.ts` declares them.
 */
export const SERVICES = ['core', 'bpm', 'dms'] as const;
export type MigratedService = (typeof SERVICES)[number];

export function isService(name: unknown): name is MigratedService {
  return SERVICES.includes(name as MigratedService);
}

/** A service's schema name, entities and migrations folder. */
export async function serviceSchema(service: MigratedService): Promise<typeof import('../../bpm-svc/src/db.ts')> {
  return (await import(`../../${service}-svc/src/db.ts`)) as typeof import('../../bpm-svc/src/db.ts');
}
