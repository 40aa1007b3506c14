import { isScalar, visibleScalars, type Resource, type ScalarField } from './resource.ts';

/**
 * A resource's filter through a reference (list-view.ts `ThroughFilter`), resolved against the
 * resources it names: `filter.<name>` keeps the records whose `via` names a record of `target`
 * whose field `name` (declared `spec`) holds the value.
 */
export interface ResolvedThrough {
  name: string;
  /** The reference of the filtered resource the filter goes through (an accrual's `contractId`). */
  via: string;
  /** The resource `via` references (contract). */
  target: Resource;
  /** The target's field of the same name (contract's `businessPartnerId`): the filter's kind and words. */
  spec: ScalarField;
}

/**
 * The filters through a reference that `resource` declares, each resolved among `resources` (the
 * registry, or the resources of the resource's service). A declaration that cannot be answered by
 * one subquery of the same service, within the tenant, is an error at start: `via` is not a
 * same-tenant reference of the same service, its target is not among `resources`, the target has
 * no shown scalar field of the filter's name, that field has no index of its own (it must be a
 * reference or unique: the subquery finds the target's rows by it, and the filtered rows by the
 * index every reference has), or the name is one of the resource's own fields.
 *
 * @example
 * throughFilters(accrual, bpmResources) // [{ name: 'businessPartnerId', via: 'contractId', target: contract, spec: { kind: 'long', references: 'business-partner', ... } }]
 */
export function throughFilters(resource: Resource, resources: readonly Resource[]): ResolvedThrough[] {
  return Object.entries(resource.list?.through ?? {}).map(([name, { via }]) => {
    const where = `${resource.path}: the filter ${name} through ${via}`;
    const reference = resource.fields[via];
    if (!reference || !isScalar(reference) || !reference.references) throw new Error(`${where}: ${via} is not a same-tenant reference`);
    if (reference.referencesService !== undefined && reference.referencesService !== resource.service) {
      throw new Error(`${where}: ${via} references another service's records, which one subquery cannot read`);
    }
    if (name in resource.fields) throw new Error(`${where}: ${name} is a field of ${resource.path} itself`);
    const target = resources.find((each) => each.path === reference.references);
    if (!target) throw new Error(`${where}: ${reference.references} is not declared beside it`);
    const spec = visibleScalars(target).find(([field]) => field === name)?.[1];
    if (!spec) throw new Error(`${where}: ${target.path} has no shown field ${name}`);
    if (!spec.references && !spec.referencesKey && spec.unique === undefined) {
      throw new Error(`${where}: ${target.path}.${name} has no index of its own (neither a reference nor unique)`);
    }
    return { name, via, target, spec };
  });
}
