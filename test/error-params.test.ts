/**
 * A service's error names what was wrong (docs/interface.md#records: "400 SVC-SYS-2001 naming the field"),
 * and a client may name a field in any script or at any length. The name travels from the service
 * to the gateway in gRPC metadata, which takes printable ASCII only.
 */
import test from 'ava';
import { adminSession, freshTenant } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';

test('an unknown filter key or sort field in any script is 400 naming it, and the service stays up', async (t) => {
  // the service's error carries the field name to the gateway in gRPC metadata, which takes
  // printable ASCII only: "ünvan" once made it throw outside any handler and exit
  const { token } = await adminSession();
  const tenant = freshTenant();
  for (const name of ['ünvan', 'имя', '名前', 'x'.repeat(5000)]) {
    assertInvalid(
      t,
      await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant, [name]: 1 } } }),
      `filter.${name.slice(0, 100)}`,
    );
    assertInvalid(
      t,
      await api('POST', '/api/business-partner/list', { token, body: { sorts: [{ field: name }], filter: { crProcessId: tenant } } }),
      name.slice(0, 100),
    );
  }
  t.is((await api('POST', '/api/business-partner/list', { token, body: { filter: { crProcessId: tenant } } })).status, 200);
});
