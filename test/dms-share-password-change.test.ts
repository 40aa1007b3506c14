/**
 * A password-validated downloadUrl is signed over the link's password as it stands
 * (docs/adr/0075-share-link-passwords-and-the-signed.md): setting, replacing or clearing the password voids every URL
 * validated before, which then answers 403 SVC-SYS-3003 as any changed signature does ("download
 * signature invalid", docs/interface.md#errors), while a new validation works.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { sharedWithPassword } from './helpers/files.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

/** A file of a fresh tenant and a link to it with `password`. */
async function linkWithPassword(password: string) {
  const { token, link, url } = await sharedWithPassword(() => password, randomBytes(2048), 'guarded.bin');
  return { token, link, url };
}

async function downloadUrlOf(url: string, password: string): Promise<string> {
  const res = await api('POST', `${url}/validate-password`, { body: { password } });
  if (res.status !== 200) throw new Error(`validate-password: ${res.status} ${res.text}`);
  return res.body.downloadUrl;
}

test('a downloadUrl validated before the password was replaced is 403 SVC-SYS-3003; one validated after works', async (t) => {
  const { token, link, url } = await linkWithPassword('first secret');
  const before = await downloadUrlOf(url, 'first secret');
  t.is((await api('GET', before)).status, 200, 'the URL works while the password stands');
  const replaced = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, password: 'second secret' } });
  t.is(replaced.status, 200, replaced.text);
  assertErrorBody(t, await api('GET', before), 403, 'SVC-SYS-3003');
  const refused = await api('POST', `${url}/validate-password`, { body: { password: 'first secret' } });
  t.is(refused.status, 403, 'the old password no longer validates');
  const after = await downloadUrlOf(url, 'second secret');
  t.is((await api('GET', after)).status, 200);
});

test('a downloadUrl stays void after the password is cleared and set again, even to the same password', async (t) => {
  const { token, link, url } = await linkWithPassword('same secret');
  const before = await downloadUrlOf(url, 'same secret');
  const cleared = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, password: null } });
  t.is(cleared.status, 200, cleared.text);
  t.false(cleared.body.hasPassword);
  // without a password the link is open: its bare path serves anyone, the old URL adds nothing
  t.is((await api('GET', url)).status, 200);
  const set = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: cleared.body.version, password: 'same secret' } });
  t.is(set.status, 200, set.text);
  assertErrorBody(t, await api('GET', before), 403, 'SVC-SYS-3003');
  assertErrorBody(t, await api('GET', url), 401, 'SVC-SYS-3005');
  t.is((await api('GET', await downloadUrlOf(url, 'same secret'))).status, 200);
});

test('a downloadUrl of a link validated while it had no password is void once a password is set', async (t) => {
  const { token, link, url } = await linkWithPassword('interim secret');
  const cleared = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: link.version, password: null } });
  t.is(cleared.status, 200, cleared.text);
  const open = await downloadUrlOf(url, 'anything');
  const set = await api('PUT', `/api/dms-share-link/${link.id}`, { token, body: { version: cleared.body.version, password: 'now guarded' } });
  t.is(set.status, 200, set.text);
  assertErrorBody(t, await api('GET', open), 403, 'SVC-SYS-3003');
});
