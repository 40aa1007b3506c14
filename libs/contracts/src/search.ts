import type { SchemaObject } from 'openapi3-ts/oas31';
import type { Resource, ServiceName } from '@platform/kit/resource/resource.ts';
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { businessPartner } from './bpm/business-partner.ts';
import { contact } from './bpm/contact.ts';
import { contract } from './bpm/contract.ts';
import { product } from './bpm/product.ts';
import { dmsFile } from './dms/dms-file.ts';
import type { DocSources, OperationTable } from './operation.ts';

/** A field of a resource's declaration, by name. */
type FieldOf<R extends Resource> = keyof R['fields'] & string;

function searchKind<R extends Resource>(resource: R, fields: { code?: FieldOf<R>; name: readonly FieldOf<R>[] }): SearchKind {
  return { resource, ...fields };
}

/**
 * The kinds the global search covers, in the order the answer lists them. Each service searches its
 * own (SearchService, proto/platform/common/v1/search.proto); the gateway asks every service that
 * owns one.
 */
export const SEARCH_KINDS: readonly SearchKind[] = [
  searchKind(businessPartner, { code: 'partnerCode', name: ['partnerName'] }),
  searchKind(contact, { name: ['firstName', 'lastName'] }),
  searchKind(product, { code: 'productCode', name: ['productName'] }),
  searchKind(contract, { code: 'contractNo', name: ['description'] }),
  searchKind(dmsFile, { name: ['originalFileName'] }),
];

/** The services that own a searched kind, each once, in the kinds' order. */
export const SEARCH_SERVICES: readonly ServiceName[] = [...new Set(SEARCH_KINDS.map((kind) => kind.resource.service))];

/** The longest term the search takes, in characters. */
export const SEARCH_MAX_TERM = 100;
/** Hits per kind in the gateway's answer. */
export const SEARCH_HITS_PER_KIND = 5;

const HIT = 'platform.common.v1.SearchHit';
const GROUP = 'platform.common.v1.SearchGroup';

function answerSchema(sources: DocSources): SchemaObject {
  const hit: SchemaObject = {
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'integer', format: 'int64', minimum: 1, description: sources.field(HIT, 'id') },
      code: { type: ['string', 'null'], description: sources.field(HIT, 'code') },
      name: { type: 'string', description: sources.field(HIT, 'name') },
    },
    required: ['id', 'code', 'name'],
  };
  const group: SchemaObject = {
    type: 'object',
    additionalProperties: false,
    properties: {
      entity: { type: 'string', enum: SEARCH_KINDS.map((kind) => kind.resource.path), description: sources.field(GROUP, 'entity') },
      hits: { type: 'array', items: hit, maxItems: SEARCH_HITS_PER_KIND, description: sources.field(GROUP, 'hits') },
      more: { type: 'boolean', description: sources.field(GROUP, 'more') },
    },
    required: ['entity', 'hits', 'more'],
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      groups: {
        type: 'array',
        items: group,
        description: 'One group per kind the caller may read, in a fixed order: business-partner, contact, product, contract, dms-file.',
      },
      partial: { type: 'boolean', description: 'Whether a service did not answer within the time budget (its kinds are in `unanswered`).' },
      unanswered: {
        type: 'array',
        items: { type: 'string' },
        description: 'The kinds whose service was unavailable or slow; empty when partial is false.',
      },
    },
    required: ['groups', 'partial', 'unanswered'],
  };
}

/**
 * GET /api/search?q= (docs/interface.md#search): the console's global search over partners,
 * contacts, products, contracts and files. The gateway asks every service that owns a kind at once,
 * within a time budget, and merges their answers; it calls no single RPC of its own.
 */
export const SEARCH_OPERATIONS = {
  search: {
    method: 'get',
    path: '/api/search',
    query: { q: 'text', crProcessId: 'id' },
    doc: (sources) => ({
      tag: 'search',
      summary: 'Search partners, contacts, products, contracts and files',
      description:
        `Codes by prefix and names by containment (by prefix for a term under three characters), case-insensitive, ` +
        `at most ${SEARCH_HITS_PER_KIND} hits per kind, in the caller's current tenant (crProcessId may name it; ` +
        `another is 403 SVC-SYS-1003 unless a super user). A kind is searched only for a caller who holds its ` +
        `<entity>:read now; the others are left out. q is required, 1 to ${SEARCH_MAX_TERM} characters (400 SVC-SYS-2001). ` +
        `A service that does not answer within the budget leaves its kinds out and marks the answer partial.`,
      ok: { status: 200, schema: answerSchema(sources), description: 'The hits by kind.' },
    }),
  },
} as const satisfies OperationTable;
