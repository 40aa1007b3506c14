/**
 * The console's role catalogue (docs/adr/0124-roles-by-pointing-from-a-derived-catalogue.md) holds
 * every role the contract names, each with a readable name in both languages. decisions.md §2:
 * "Codes are `<entity>:read` (get, list, stats, …), `<entity>:write` (create, update, …),
 * `<entity>:delete`, and `accrual:approve`, `accrual:invoice`, `accrual:cancel`."
 */
import test from 'ava';
import { offers } from '@platform/kit/resource/resource.ts';
import { registry } from '../gateway/src/registry.ts';
import { consoleManifest } from '../gateway/src/console/manifest.ts';
import { declaredName, roleCatalogue, roleName } from '@platform/contracts/console/role-catalogue.ts';

const { resources } = consoleManifest(registry, {});
const catalogue = roleCatalogue(resources);

test('every role the contract names for the registry is in the catalogue, and nothing else', (t) => {
  const expected = registry.flatMap((resource) => [
    ...(offers(resource, 'get') || offers(resource, 'list') ? [`${resource.path}:read`] : []),
    ...(offers(resource, 'create') || offers(resource, 'update') ? [`${resource.path}:write`] : []),
    ...(offers(resource, 'delete') ? [`${resource.path}:delete`] : []),
  ]);
  expected.push('accrual:approve', 'accrual:invoice', 'accrual:cancel');
  t.deepEqual(catalogue.map((role) => role.code).sort(), expected.sort());
  t.true(catalogue.length > 80, `only ${catalogue.length} roles`);
});

test('every resource has a declared name in both languages, which its roles read by', (t) => {
  const unnamed = resources.flatMap((resource) =>
    (['en', 'tr'] as const).filter((language) => !declaredName(resource, language)).map((language) => `${resource.path} (${language})`),
  );
  t.deepEqual(unnamed, []);
});

test('each role reads as words in English and Turkish, never as its code, and no two alike', (t) => {
  for (const language of ['en', 'tr'] as const) {
    const names = catalogue.map((role) => roleName(role, language));
    t.is(new Set(names).size, names.length, `${language}: two roles with one name`);
    const coded = names.filter((name) => /[:_]|[a-z]-[a-z]/.test(name) || !/ — /.test(name));
    t.deepEqual(coded, [], `${language}: names that read as codes`);
  }
  const partnersRead = catalogue.find((role) => role.code === 'business-partner:read');
  t.truthy(partnersRead);
  t.is(roleName(partnersRead!, 'en'), 'Business partners — read');
  t.is(roleName(partnersRead!, 'tr'), 'İş ortakları — okuma');
  const approve = catalogue.find((role) => role.code === 'accrual:approve');
  t.is(roleName(approve!, 'tr'), 'Tahakkuklar — onaylama');
});
