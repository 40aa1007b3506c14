import type { Resource } from './resource.ts';

/**
 * One kind of record the global search finds (docs/adr/0116-global-search-fans-out.md): its
 * resource, the field matched by prefix (its code, when it has one) and the fields matched by
 * containment and shown, joined by a space, as its name. The kinds are listed in
 * libs/contracts/src/search.ts; each service searches its own.
 *
 * @example
 * const partners: SearchKind = { resource: businessPartner, code: 'partnerCode', name: ['partnerName'] };
 */
export interface SearchKind {
  readonly resource: Resource;
  readonly code?: string;
  readonly name: readonly string[];
}
