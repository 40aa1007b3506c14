/**
 * How a resource's create and edit forms, and its record page, group its fields: titled sections
 * in the declared order, each listing field names of the resource (its own and the common ones:
 * `status`). Declared once with the resource (`form` of its declaration), typed against its field
 * names, so a misspelt or removed field is a compile error; the console shows the sections stacked
 * (docs/adr/0121-forms-in-declared-sections.md).
 *
 * @example
 * form: {
 *   sections: [
 *     { title: { en: 'Identity', tr: 'Kimlik' }, fields: ['partnerCode', 'partnerName', 'partnerType', 'status'] },
 *     { title: { en: 'Contact', tr: 'İletişim' }, fields: ['email', 'phone', 'address'] },
 *   ],
 * },
 */
export interface ResourceForm<Name extends string = string> {
  sections: readonly FormSection<Name>[];
}

/** One titled group of fields, in both languages the console speaks. */
export interface FormSection<Name extends string = string> {
  title: { en: string; tr: string };
  fields: readonly Name[];
}
