import type { SchemaObject } from 'openapi3-ts/oas31';
import { nullable } from './field-schema.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { protoSchema } from './proto-schema.ts';
import { pageResponse, ref } from './shared-schemas.ts';

const MESSAGE = 'platform.common.v1.ImportRun';

/** The bodies of the import routes (docs/interface.md#import): a run as the gateway writes it, a page of runs, the upload's form and the mapping's body. */
export function importSchemas(docs: ProtoDocs): Record<string, SchemaObject> {
  const run = protoSchema(docs, MESSAGE, { allPresent: true });
  const field = (name: string) => docs.field(MESSAGE, name);
  const row = protoSchema(docs, 'platform.common.v1.ImportRowError', { allPresent: true });
  return {
    ImportRun: {
      ...run,
      properties: {
        ...run.properties,
        mapping: { type: 'array', items: nullable({ type: 'string' }), description: field('mapping') },
        preview: { type: 'array', items: { type: 'array', items: { type: 'string' } }, description: field('preview') },
        errors: { type: 'array', items: row, description: field('errors') },
      },
    },
    ImportRunPage: pageResponse(docs, ref('ImportRun'), 'A page of import runs, newest first.'),
    ImportUpload: {
      type: 'object',
      description: 'The multipart form of POST /api/import/{entity} (docs/interface.md#import).',
      properties: {
        file: { type: 'string', format: 'binary', description: 'The CSV (UTF-8) or XLSX file.' },
        crProcessId: { type: 'integer', format: 'int64', description: 'The tenant the records are imported into.' },
      },
      required: ['file', 'crProcessId'],
    },
    ImportUpdate: {
      type: 'object',
      additionalProperties: false,
      description: docs.message('platform.common.v1.UpdateImportRequest'),
      properties: {
        mapping: { type: 'array', items: nullable({ type: 'string' }), description: 'For each column of the header, the field it fills, or null.' },
        updateByCode: { type: 'boolean', description: docs.field('platform.common.v1.UpdateImportRequest', 'updateByCode') },
      },
      required: ['mapping'],
    },
  };
}
