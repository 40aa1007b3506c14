/**
 * Every form is in declared sections (docs/adr/0121-forms-in-declared-sections.md): each resource
 * that offers create or update declares `form.sections`, titled in both languages, and every field
 * its forms write (gateway/console/src/resources/fields.ts `formFields`: not read-only, not a
 * secret, not the tenant) is in exactly one of them. There is no default section to fall into: a new
 * writable field left out fails here. The console manifest carries the sections as declared.
 */
import test from 'ava';
import { registry } from '../gateway/src/registry.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { formFields } from '../gateway/console/src/resources/fields.ts';
import { fieldGroups } from '../gateway/console/src/resources/sections.ts';

const manifest = consoleManifest(registry, {});

test('every writable field of every resource with a form is in exactly one declared section', (t) => {
  const wrong: string[] = [];
  let checked = 0;
  for (const resource of manifest.resources) {
    if (!resource.operations.create && !resource.operations.update) continue;
    if (resource.sections.length === 0) {
      wrong.push(`${resource.path}: declares no form sections`);
      continue;
    }
    const known = new Set(resource.fields.map((field) => field.name));
    const seen = new Map<string, number>();
    for (const section of resource.sections) {
      if (!section.title.en.trim() || !section.title.tr.trim()) wrong.push(`${resource.path}: a section without its en and tr title`);
      if (section.fields.length === 0) wrong.push(`${resource.path}: section ${section.title.en} lists no field`);
      for (const name of section.fields) {
        seen.set(name, (seen.get(name) ?? 0) + 1);
        if (!known.has(name)) wrong.push(`${resource.path}: section ${section.title.en} names ${name}, not a field of the API`);
      }
    }
    for (const [name, count] of seen) if (count > 1) wrong.push(`${resource.path}.${name}: in ${count} sections`);
    for (const field of formFields(resource)) {
      checked++;
      if (!seen.has(field.name)) wrong.push(`${resource.path}.${field.name}: writable, in no section`);
    }
  }
  t.deepEqual(wrong, []);
  t.true(checked > 120, `only ${checked} writable fields checked`);
});

test("the console groups a partner's form as declared, in the chosen language, with no trailing group", (t) => {
  const partner = manifest.resources.find((resource) => resource.path === 'business-partner');
  if (!partner) return t.fail('no business-partner in the manifest');
  const groups = (language: 'en' | 'tr') =>
    fieldGroups(partner, formFields(partner), language).map((group) => [group.title, group.fields.map((field) => field.name)]);
  t.deepEqual(groups('en'), [
    ['Identity', ['partnerCode', 'partnerName', 'partnerType', 'taxNumber', 'status']],
    ['Contact', ['email', 'phone', 'address']],
    ['Location', ['countryId', 'cityId']],
  ]);
  t.deepEqual(
    groups('tr').map(([title]) => title),
    ['Kimlik', 'İletişim', 'Konum'],
  );
});

test("a record page's fields no section lists (the record's stamps) come last, in one group", (t) => {
  const partner = manifest.resources.find((resource) => resource.path === 'business-partner');
  if (!partner) return t.fail('no business-partner in the manifest');
  const groups = fieldGroups(partner, partner.fields, 'en');
  const last = groups.at(-1);
  t.is(last?.title, undefined);
  t.deepEqual(
    last?.fields.map((field) => field.name),
    ['id', 'version', 'crProcessId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy'],
  );
});
