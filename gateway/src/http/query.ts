import type { Request } from 'express';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { idParam } from './params.ts';
import type { ParamKind, QuerySpec } from '@platform/contracts/operation.ts';

/** How a query parameter is read (`ParamKind`) and a route's parameters by name: declared with the operations. */
export type { ParamKind, QuerySpec } from '@platform/contracts/operation.ts';

export type QueryValues<S extends QuerySpec> = { -readonly [P in keyof S]?: S[P] extends 'text' ? string : number };

/**
 * The query of a request read by the route's declaration: a parameter the route does not take,
 * one given twice (`?a=1&a=2`) or in array or object shape (`?a[]=1`, `?a[b]=1`, which express's
 * query parser leaves as names of their own) is 400 SVC-SYS-2001 naming it, like an unknown body
 * field (docs/interface.md#records). The values are converted by kind.
 *
 * @example
 * readQuery(req, { crProcessId: 'id' }) // ?crProcessId=7 → { crProcessId: 7 }; ?crProcessId[]=7 → 400
 */
export function readQuery<S extends QuerySpec>(req: Request, spec: S): QueryValues<S> {
  const values: Record<string, string | number> = {};
  for (const [name, raw] of Object.entries(req.query as Record<string, unknown>)) {
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!kind) throw new DomainError('SVC-SYS-2001', 'param.unknown', { param: name.slice(0, 100) });
    if (typeof raw !== 'string') throw new DomainError('SVC-SYS-2001', 'param.repeated', { param: name });
    const value = paramValue(name, kind, raw);
    if (value !== undefined) values[name] = value;
  }
  return values as QueryValues<S>;
}

function paramValue(name: string, kind: ParamKind, raw: string): string | number | undefined {
  if (kind === 'id') return idParam(raw, name);
  if (raw === '') return undefined;
  if (kind === 'int' ? !/^-?\d{1,9}$/.test(raw) : raw.length > 1000) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return kind === 'int' ? Number(raw) : raw;
}
