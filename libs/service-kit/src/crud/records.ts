import type { COMMON_FIELDS, FieldSpec, ObjectListField, Resource, ScalarField, StringListField } from '@platform/kit/resource/resource.ts';

/** The JS value a column of a kind holds in a row (as the engine hydrates it). */
type ColumnValue<S> = S extends { kind: 'long' | 'int' } ? number : S extends { kind: 'boolean' } ? boolean : S extends { kind: 'datetime' } ? Date : string;

/** A column that is never null: required on create, or filled by a default. */
type NotNull<S> = S extends { required: true } ? true : S extends { default: string | number | boolean } ? true : false;

/** Every column declaration of a resource: the common fields, its own, and the service's columns. */
type ColumnsOf<R> = R extends Resource<infer Fields, object, infer Columns> ? Omit<typeof COMMON_FIELDS, keyof Fields> & Fields & Columns : never;

/** The common columns the engine always fills. */
type Always = 'id' | 'version' | 'crProcessId' | 'status' | 'createdAt' | 'updatedAt';

/**
 * A row of a resource as hooks and operations see it: each column (object and string lists are not columns)
 * with the type its kind holds, `null` where the column may be empty.
 *
 * @example
 * type UserInfoRow = RowOf<typeof userInfo>; // { userCode: string; email: string | null; superUser: boolean; tokenVersion: number; ... }
 */
export type RowOf<R> = {
  -readonly [K in keyof ColumnsOf<R> as ColumnsOf<R>[K] extends ObjectListField | StringListField ? never : K]: ColumnsOf<R>[K] extends ScalarField
    ? K extends Always
      ? ColumnValue<ColumnsOf<R>[K]>
      : NotNull<ColumnsOf<R>[K]> extends true
        ? ColumnValue<ColumnsOf<R>[K]>
        : ColumnValue<ColumnsOf<R>[K]> | null
    : never;
};

/** The proto message a resource travels as. */
export type MessageOf<R> = R extends Resource<Record<string, FieldSpec>, infer M, Record<string, ScalarField>> ? M : Record<string, unknown>;
