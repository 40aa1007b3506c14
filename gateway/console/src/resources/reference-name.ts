/**
 * The query of a referenced record, read for its name (a list's reference columns): in the
 * background queue of the data provider, two at a time, so that the next page's list request does
 * not wait behind forty of them. Its key lies under Refine's key of the resource
 * (`['data', 'default', path]`), so what invalidates the resource's data invalidates the names too.
 */
import { dataProvider } from './data-provider.ts';

type Row = Record<string, unknown>;

/** The query key and function of record `id` of resource `path`. */
export function referenceName(path: string, id: string | number) {
  return {
    queryKey: ['data', 'default', path, 'reference', String(id)] as const,
    queryFn: async (): Promise<Row> => (await dataProvider.getOne<Row>({ resource: path, id, meta: { background: true } })).data,
  };
}
