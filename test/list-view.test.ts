/**
 * Every list of the registry is declared for people (docs/adr/0118-a-list-declares-its-columns.md):
 * its default columns are fields a list may show, its primary filters fields a list may filter by
 * (no id or version range among them), a containment match only where pg_trgm is (bpm's schema,
 * docs/adr/0119-text-filters-match-by-prefix-or.md), and the manifest carries it all. The names
 * themselves are checked by the compiler (libs/kit/src/resource/list-view.ts).
 */
import test from 'ava';
import { apiFields, isScalar, offers, visibleScalars } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import type { businessPartner } from '@platform/contracts/bpm/business-partner.ts';
import type { product } from '@platform/contracts/bpm/product.ts';
import type { accrual } from '@platform/contracts/bpm/accrual.ts';
import { throughFilters } from '@platform/kit/resource/through-filters.ts';

/** The partner's list declaration as its type stands: what `npm run typecheck` holds each name to. */
type PartnerList = NonNullable<(typeof businessPartner)['list']>;
// @ts-expect-error a column the partner does not have
export const misspeltColumn: PartnerList['columns'] = ['partnerCod'];
// @ts-expect-error a prefix match on a field that is not text
export const numberMatched: PartnerList['match'] = { countryId: 'prefix' };
// @ts-expect-error money on a field that is not a decimal
export const textAsMoney: NonNullable<(typeof product)['list']>['money'] = { productName: 'currencyCode' };
export const declared: PartnerList['columns'] = ['partnerCode', 'status'];
// @ts-expect-error a filter through a field that is no reference (docs/adr/0141-a-list-filters-through-a-reference.md)
export const throughNoReference: NonNullable<(typeof accrual)['list']>['through'] = { businessPartnerId: { via: 'periodStart' } };

const manifest = consoleManifest(registry, {});

test('every listable resource declares its list: shown columns, filterable primary filters, no id or version range', (t) => {
  const wrong: string[] = [];
  for (const resource of registry.filter((each) => offers(each, 'list'))) {
    const view = resource.list;
    if (!view) {
      wrong.push(`${resource.path}: no list declared`);
      continue;
    }
    // filterable: the visible scalars; shown: those and the computed ones (an audit entry's fileName)
    const shown = new Map(visibleScalars(resource));
    const fields = apiFields(resource);
    if (view.columns.length === 0) wrong.push(`${resource.path}: no default column`);
    for (const name of view.columns) {
      const spec = fields[name];
      if (!spec || !isScalar(spec) || spec.writeOnly || spec.secret || name === 'version') wrong.push(`${resource.path}.${name}: not a column a list shows`);
    }
    // and the filters through a reference it declares, each resolved in the registry
    const through = new Set(throughFilters(resource, registry).map((each) => each.name));
    for (const name of view.filters) {
      if ((!shown.has(name) && !through.has(name)) || name === 'crProcessId') wrong.push(`${resource.path}.${name}: not a filter a list offers`);
      if (name === 'id' || name === 'version') wrong.push(`${resource.path}.${name}: an id or version range among the primary filters`);
    }
    for (const [name, match] of Object.entries(view.match ?? {})) {
      const spec = resource.fields[name];
      if (!spec || !isScalar(spec) || spec.writeOnly || spec.secret) wrong.push(`${resource.path}.${name}: matched, yet not a shown text field`);
      if (match === 'contains' && resource.service !== 'bpm') wrong.push(`${resource.path}.${name}: contains needs pg_trgm, which lives in bpm`);
    }
    for (const [amount, currency] of Object.entries(view.money ?? {})) {
      const spec = currency === undefined ? undefined : resource.fields[currency];
      if (!spec || !isScalar(spec) || spec.maxLength !== 3) wrong.push(`${resource.path}.${amount}: its currency field ${currency} is no ISO 4217 code`);
    }
  }
  t.deepEqual(wrong, []);
});

test('the manifest carries the declared columns, filters, matches and money', (t) => {
  const partner = manifest.resources.find((each) => each.path === 'business-partner');
  t.deepEqual(partner?.columns, ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status']);
  t.deepEqual(partner?.filters, ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status']);
  const field = (path: string, name: string) => manifest.resources.find((each) => each.path === path)?.fields.find((each) => each.name === name);
  t.is(field('business-partner', 'taxNumber')?.match, 'prefix');
  t.is(field('business-partner', 'partnerName')?.match, 'contains');
  t.is(field('business-partner', 'email')?.match, undefined);
  t.is(field('accrual', 'amount')?.currencyField, 'currencyCode');
  t.is(field('contract-item', 'unitPrice')?.currencyField, undefined);
  // a filter through a reference: among the list's filters, and named and checked as the contract's partner
  const accrualList = manifest.resources.find((each) => each.path === 'accrual');
  t.is(accrualList?.filters[0], 'businessPartnerId');
  t.like(accrualList?.through, [{ name: 'businessPartnerId', kind: 'long', through: 'contractId', references: { resource: 'business-partner', key: 'id' } }]);
  t.deepEqual(accrualList?.through[0]?.label, { en: 'Business partner', tr: 'İş ortağı' });
  t.is(
    accrualList?.fields.find((each) => each.name === 'businessPartnerId'),
    undefined,
    'a filter, not a field of the record',
  );
});
