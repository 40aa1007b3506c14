/** Which gateway-to-service calls are retried on UNAVAILABLE (gateway/src/retry-policy.ts): reads only. */
import test from 'ava';
import { readOnlyMethods, retryServiceConfig } from '../gateway/src/retry-policy.ts';

test('only read-only RPCs are retried: every Get/List/Search/Page and Me, never a write', (t) => {
  const methods = readOnlyMethods().map((m) => m.method);
  for (const read of [
    'GetBranch',
    'ListBranches',
    'GetBranchStats',
    'ListBranchesByPartner',
    'SearchDmsFiles',
    'GetDmsFileDownloadUrl',
    'Me',
    'PageSessionHistory',
  ]) {
    t.true(methods.includes(read), read);
  }
  const writes = methods.filter((m) => /^(Create|Update|Delete|Approve|Invoice|Cancel|Move|Run|Sweep|Record|Login|Logout|Change|Switch)/.test(m));
  t.deepEqual(writes, []);
  const config = JSON.parse(retryServiceConfig());
  t.deepEqual(config.methodConfig[0].retryPolicy.retryableStatusCodes, ['UNAVAILABLE']);
  t.is(config.methodConfig.length, 1, 'no other method has a retry policy');
});
