/**
 * The catalogue of what people read (docs/adr/0117-labels-catalogue-beside-the-declaration.md): every
 * entity, every field (the common ones and the item fields of an `objects` field too) and every enum
 * value of the registry has its words in every language the platform speaks, declared with its
 * resource, and the console's manifest carries them. The contract: "Entity names, field labels, enum
 * values and help texts in both languages from one catalogue in the contracts".
 */
import test from 'ava';
import { fieldTexts, LANGUAGES, type Texts } from '@platform/kit/resource/labels.ts';
import { apiFields, isScalar, type FieldSpec, type Resource } from '@platform/kit/resource/resource.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { registry } from '../gateway/src/registry.ts';

/** Words spelt alike in English and Turkish, where a Turkish label equal to the English one is right. */
const SAME_IN_BOTH: ReadonlySet<string> = new Set([]);

/** Every field people may meet, by its catalogue name: `<field>`, and `<field>.<item>` for an `objects` field's items (written or only shown). */
function catalogueFields(resource: Resource): [string, FieldSpec][] {
  return Object.entries(apiFields(resource)).flatMap(([name, spec]): [string, FieldSpec][] =>
    spec.kind === 'objects'
      ? [[name, spec], ...Object.entries({ ...spec.of, ...spec.shown }).map(([item, s]): [string, FieldSpec] => [`${name}.${item}`, s])]
      : [[name, spec]],
  );
}

/** The problems of one text in both languages: missing, blank, untrimmed, or Turkish left English. */
function problems(where: string, texts: Partial<Texts> | undefined): string[] {
  const out: string[] = [];
  for (const language of LANGUAGES) {
    const text = texts?.[language];
    if (text === undefined || !/\S/.test(text)) out.push(`${where}: no ${language} text`);
    else if (text !== text.trim()) out.push(`${where}: ${language} text "${text}" has spaces around it`);
  }
  if (texts?.en !== undefined && texts.en === texts.tr && !SAME_IN_BOTH.has(texts.en)) out.push(`${where}: the Turkish "${texts.tr}" is the English`);
  return out;
}

const both = (pick: (language: (typeof LANGUAGES)[number]) => string | undefined): Partial<Texts> => ({ en: pick('en'), tr: pick('tr') });

test('every entity has its name, singular and plural, in English and in Turkish', (t) => {
  const found = registry.flatMap((resource) => [
    ...problems(
      `${resource.path} one`,
      both((language) => resource.labels[language].one),
    ),
    ...problems(
      `${resource.path} other`,
      both((language) => resource.labels[language].other),
    ),
  ]);
  t.deepEqual(found, []);
  for (const language of LANGUAGES) {
    const plurals = registry.map((resource) => resource.labels[language].other);
    t.is(new Set(plurals).size, plurals.length, `no two entities alike in ${language}: ${plurals.join(', ')}`);
  }
});

test('every field, common and item fields included, has its label in English and in Turkish', (t) => {
  const found = registry.flatMap((resource) =>
    catalogueFields(resource).flatMap(([name]) => problems(`${resource.path}.${name}`, fieldTexts(resource.labels, name))),
  );
  t.deepEqual(found, []);
});

test('within a resource no two fields read alike', (t) => {
  for (const resource of registry) {
    for (const language of LANGUAGES) {
      const labels = Object.keys(apiFields(resource)).map((name) => fieldTexts(resource.labels, name)?.[language]);
      t.is(new Set(labels).size, labels.length, `${resource.path} (${language}): ${labels.join(', ')}`);
    }
  }
});

test('every value of every enum field has its label in English and in Turkish', (t) => {
  const found = registry.flatMap((resource) =>
    catalogueFields(resource).flatMap(([name, spec]) =>
      isScalar(spec) && spec.kind === 'enum'
        ? (spec.values ?? []).flatMap((value) =>
            problems(
              `${resource.path}.${name}=${value}`,
              both((language) => resource.labels[language].values?.[name]?.[value]),
            ),
          )
        : [],
    ),
  );
  t.deepEqual(found, []);
});

test('the catalogue names only fields and values its resource has, and help in both languages or neither', (t) => {
  const found: string[] = [];
  for (const resource of registry) {
    const fields = new Map(catalogueFields(resource));
    for (const language of LANGUAGES) {
      const labels = resource.labels[language];
      for (const name of Object.keys(labels.fields)) if (!fields.has(name)) found.push(`${resource.path} ${language}: no field ${name}`);
      for (const [name, values] of Object.entries(labels.values ?? {})) {
        const spec = fields.get(name);
        const declared = spec && isScalar(spec) ? (spec.values ?? []) : [];
        for (const value of Object.keys(values)) if (!declared.includes(value)) found.push(`${resource.path} ${language}: no value ${name}=${value}`);
      }
      for (const name of Object.keys(labels.help ?? {})) if (!fields.has(name)) found.push(`${resource.path} ${language}: help of no field ${name}`);
    }
    const helped = new Set([...Object.keys(resource.labels.en.help ?? {}), ...Object.keys(resource.labels.tr.help ?? {})]);
    for (const name of helped)
      found.push(
        ...problems(
          `${resource.path} help of ${name}`,
          both((language) => resource.labels[language].help?.[name]),
        ),
      );
  }
  t.deepEqual(found, []);
});

test("the console's manifest carries every label: entity names, menu entries, fields and enum values", (t) => {
  const manifest = consoleManifest(registry, {});
  for (const resource of manifest.resources) {
    const declared = registry.find((each) => each.path === resource.path)!;
    t.deepEqual(resource.labels.other, { en: declared.labels.en.other, tr: declared.labels.tr.other });
    // the menu entry reads as the plural, declared once
    if (resource.menu) t.deepEqual(resource.menu.label, resource.labels.other, resource.path);
    for (const field of resource.fields) {
      t.deepEqual(field.label, fieldTexts(declared.labels, field.name), `${resource.path}.${field.name}`);
      for (const value of field.values ?? []) t.truthy(field.valueLabels?.[value]?.tr, `${resource.path}.${field.name}=${value}`);
      for (const item of field.of ?? []) t.not(item.label.tr, item.name, `${resource.path}.${field.name}.${item.name}`);
    }
  }
  const partner = manifest.resources.find((resource) => resource.path === 'business-partner')!;
  const partnerType = partner.fields.find((field) => field.name === 'partnerType')!;
  t.deepEqual(partner.labels.one, { en: 'Business partner', tr: 'İş ortağı' });
  t.deepEqual(partnerType.valueLabels?.SUPPLIER, { en: 'Supplier', tr: 'Tedarikçi' });
});
