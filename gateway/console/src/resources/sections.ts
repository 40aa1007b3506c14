/**
 * A resource's fields grouped as its declaration's sections (`form`, libs/kit/src/resource/form.ts)
 * for a form or a record page: each declared section with those of its fields that are shown here,
 * in the declared order, then one trailing section of the shown fields no section lists (on a record
 * page the record's own stamps: id, version, tenant, created and updated). Sections left empty are
 * dropped. Never names a resource: a new one without sections gets one untitled group.
 */
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';

export interface FieldGroup {
  /** The declared title in the console's language; undefined for the trailing group of the rest. */
  title: string | undefined;
  fields: ConsoleField[];
}

export function fieldGroups(resource: Pick<ConsoleResource, 'sections'>, shown: readonly ConsoleField[], language: 'en' | 'tr'): FieldGroup[] {
  const byName = new Map(shown.map((field) => [field.name, field]));
  const placed = new Set<string>();
  const groups: FieldGroup[] = [];
  for (const section of resource.sections ?? []) {
    const fields = section.fields.flatMap((name) => {
      const field = byName.get(name);
      if (!field || placed.has(name)) return [];
      placed.add(name);
      return [field];
    });
    if (fields.length > 0) groups.push({ title: section.title[language], fields });
  }
  const rest = shown.filter((field) => !placed.has(field.name));
  if (rest.length > 0) groups.push({ title: undefined, fields: rest });
  return groups;
}
