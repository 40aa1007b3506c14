/**
 * Every reference of the registry gives a related list on the referenced record's page, or declares
 * why not (docs/adr/0114-related-lists-follow-from-the-references.md): walks every field that names
 * a record (`references`, `referencesKey`) and finds its list in the console's manifest under the
 * target, filtered by that field; a reference with neither that list nor a `noRelatedList` reason
 * fails here, as does a reason whose list is shown all the same. A field that names a record of any
 * resource by a type field (a file's entityId by entityType) gives a list on every record page, and
 * a list filter through a reference to a reference (an accrual's businessPartnerId, through its
 * contract: docs/adr/0141-a-list-filters-through-a-reference.md) gives one on the page it names.
 */
import test from 'ava';
import { isScalar, offers } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';

const manifest = consoleManifest(registry, {});

test('every reference has its related list on the target, or a declared reason for none', (t) => {
  const wrong: string[] = [];
  let lists = 0;
  for (const resource of registry) {
    for (const [field, spec] of Object.entries(resource.fields)) {
      if (!isScalar(spec)) continue;
      const target = spec.references ?? spec.referencesKey?.resource;
      if (target === undefined) continue;
      const where = `${resource.path}.${field} → ${target}`;
      const page = manifest.resources.find((each) => each.path === target);
      const listed = page?.related.some((each) => each.resource === resource.path && each.field === field) ?? false;
      if (spec.noRelatedList !== undefined) {
        if (spec.noRelatedList.trim().length <= 10) wrong.push(`${where}: noRelatedList gives no reason`);
        if (listed) wrong.push(`${where}: declared noRelatedList, yet listed on ${target}'s page`);
        continue;
      }
      if (!page || !page.operations.get) wrong.push(`${where}: the target has no record page to list it on`);
      else if (!offers(resource, 'list')) wrong.push(`${where}: ${resource.path} has no list to show`);
      else if (!listed) wrong.push(`${where}: neither a related list nor a noRelatedList reason`);
      else lists++;
    }
  }
  t.deepEqual(wrong, []);
  t.true(lists >= 15, `only ${lists} related lists`);
});

test('a field that names a record of any resource (a file by entityType/entityId) gives a list on every other record page', (t) => {
  const wrong: string[] = [];
  for (const resource of registry) {
    for (const [field, spec] of Object.entries(resource.fields)) {
      if (!isScalar(spec) || spec.recordOf === undefined) continue;
      for (const page of manifest.resources) {
        if (!page.operations.get || page.path === resource.path) continue;
        const listed = page.related.some(
          (each) => each.resource === resource.path && each.field === field && each.type?.field === spec.recordOf && each.type?.value === page.path,
        );
        if (!listed) wrong.push(`${page.path}: no list of ${resource.path} by ${spec.recordOf}/${field}`);
      }
    }
  }
  t.deepEqual(wrong, []);
});

test("every filter through a reference that names a record gives a list on that record's page, filtered by it, offered as a filter of the list", (t) => {
  const wrong: string[] = [];
  let lists = 0;
  for (const resource of registry) {
    for (const { name, via, spec } of throughFilters(resource, registry)) {
      const target = spec.references ?? spec.referencesKey?.resource;
      if (target === undefined || spec.noRelatedList !== undefined) continue;
      const where = `${resource.path}.${name} through ${via} → ${target}`;
      const page = manifest.resources.find((each) => each.path === target);
      if (!page?.related.some((each) => each.resource === resource.path && each.field === name && each.through === via)) wrong.push(`${where}: not listed`);
      else lists++;
      const filters = manifest.resources.find((each) => each.path === resource.path)?.through ?? [];
      if (!filters.some((each) => each.name === name && each.through === via && each.references?.resource === target))
        wrong.push(`${where}: not a filter of the list`);
    }
  }
  t.deepEqual(wrong, []);
  t.true(lists >= 1, 'no list through a reference');
});

test("a related list names the field and the target's key its filter is made of", (t) => {
  const partner = manifest.resources.find((each) => each.path === 'business-partner');
  t.deepEqual(
    partner?.related.map((each) => `${each.resource}.${each.field}=${each.key}`),
    ['branch.businessPartnerId=id', 'contact.businessPartnerId=id', 'contract.businessPartnerId=id', 'accrual.businessPartnerId=id', 'dms-file.entityId=id'],
  );
  // the accruals are the partner's through their contracts: a filter of their list, not a field of theirs
  t.is(partner?.related.find((each) => each.resource === 'accrual')?.through, 'contractId');
  t.is(partner?.related.filter((each) => each.through !== undefined).length, 1);
  const user = manifest.resources.find((each) => each.path === 'user-info');
  t.true(user?.related.some((each) => each.resource === 'group-member' && each.field === 'userCode' && each.key === 'userCode'));
  const country = manifest.resources.find((each) => each.path === 'country');
  t.false(country?.related.some((each) => each.resource === 'business-partner') ?? true, "a country's partners: declared noRelatedList");
});
