/**
 * Which addresses a webhook may reach (docs/adr/0081-webhook-targets-ssrf-and-redirects.md), as core-svc classifies them
 * with ipaddr.js, under each setting; and a check of a subscription's url by resolving its host, by
 * itself and through the API's 400 naming `url`.
 */
import test from 'ava';
import { guardedLookup } from '../core-svc/src/webhooks/guarded-lookup.ts';
import { checkTargetUrl, isMetadataHost, refusalOf } from '../core-svc/src/webhooks/target-address.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { adminSession, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';

const production = { allowPrivateTargets: false, allowLoopbackTargets: false };
const development = { allowPrivateTargets: false, allowLoopbackTargets: true };
const allowPrivate = { allowPrivateTargets: true, allowLoopbackTargets: true };

test('public unicast addresses pass under every setting', (t) => {
  for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14']) {
    for (const settings of [production, development, allowPrivate]) t.is(refusalOf(address, settings), undefined, address);
  }
});

test('loopback passes in development and with WEBHOOK_ALLOW_PRIVATE_TARGETS only', (t) => {
  for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
    t.truthy(refusalOf(address, production), address);
    t.is(refusalOf(address, development), undefined, address);
    t.is(refusalOf(address, allowPrivate), undefined, address);
  }
});

test('private addresses pass with WEBHOOK_ALLOW_PRIVATE_TARGETS only', (t) => {
  for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', 'fd12:3456::1', '100.64.0.1']) {
    t.truthy(refusalOf(address, production), address);
    t.truthy(refusalOf(address, development), address);
    t.is(refusalOf(address, allowPrivate), undefined, address);
  }
});

test('link-local, metadata, unspecified and multicast addresses never pass', (t) => {
  for (const address of ['169.254.169.254', '169.254.1.1', 'fe80::1', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '::ffff:169.254.169.254']) {
    for (const settings of [production, development, allowPrivate]) t.truthy(refusalOf(address, settings), `${address} under ${JSON.stringify(settings)}`);
  }
});

test('IPv4-compatible (::a.b.c.d) and site-local (fec0::/10) addresses never pass', (t) => {
  // as the URL parser writes them: http://[::10.0.0.1]/ has the host [::a00:1]
  for (const address of ['::a00:1', '::a9fe:a9fe', '::7f00:1', '::5db8:d70e', 'fec0::1', 'fed0::1', 'feff:ffff::1']) {
    for (const settings of [production, development, allowPrivate]) t.truthy(refusalOf(address, settings), `${address} under ${JSON.stringify(settings)}`);
  }
  // fe80::/10 and ff00::/8 stay what they are; the addresses around the site-local range are not it
  t.regex(refusalOf('fec0::1', allowPrivate) ?? '', /site-local/);
  t.regex(refusalOf('::a00:1', allowPrivate) ?? '', /IPv4-compatible/);
  t.is(refusalOf('2606:4700::1111', production), undefined);
});

test('cloud metadata services never pass, private targets allowed or not, by address or by name', async (t) => {
  const metadata = [
    '169.254.169.254',
    '::ffff:169.254.169.254',
    '169.254.170.2',
    'fd00:ec2::254',
    'fd20:ce::254',
    'fd20:00ce:0000::0254',
    '100.100.100.200',
    '168.63.129.16',
    '::ffff:168.63.129.16',
    '169.254.0.23',
    '192.0.0.192',
  ];
  for (const address of metadata) {
    for (const settings of [production, development, allowPrivate])
      t.regex(refusalOf(address, settings) ?? '', /metadata/, `${address} under ${JSON.stringify(settings)}`);
  }
  // by name, before any lookup: the name itself is refused, whatever it resolves to (a lookup here
  // may fail for want of a name server, so the refusal's reason is what tells)
  for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata.goog', 'instance-data']) {
    t.true(isMetadataHost(host), host);
    const refused = await new Promise<Error | null>((resolve) => guardedLookup(allowPrivate)(host, {}, (error) => resolve(error)));
    t.regex(refused?.message ?? '', /cloud metadata service/, host);
  }
  t.false(isMetadataHost('metadata.example.com'));
  const error = await t.throwsAsync(checkTargetUrl('http://metadata.google.internal/computeMetadata/v1/', allowPrivate));
  t.like(error, { code: 'SVC-SYS-2001', params: { field: 'url' } });
});

test('a url is refused when its host resolves to an address it may not reach (400 naming url)', async (t) => {
  await t.notThrowsAsync(checkTargetUrl('http://localhost:8080/hook', development));
  for (const url of [
    'http://localhost:8080/hook',
    'http://10.1.2.3/hook',
    'http://[::1]/x',
    'https://169.254.169.254/latest',
    'http://[::10.0.0.1]/',
    'http://[fec0::1]/',
  ]) {
    const error = await t.throwsAsync(checkTargetUrl(url, production));
    t.like(error, { code: 'SVC-SYS-2001', params: { field: 'url' } }, url);
  }
  for (const url of ['http://169.254.169.254/', 'http://[fd20:ce::254]/', 'http://100.100.100.200/', 'http://168.63.129.16/', 'http://[::a9fe:a9fe]/']) {
    const error = await t.throwsAsync(checkTargetUrl(url, allowPrivate));
    t.like(error, { code: 'SVC-SYS-2001', params: { field: 'url' } }, url);
  }
  // and through the API, whose suite allows private targets (test/run.ts): 400 with a message naming url
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  for (const url of [
    'http://[::10.0.0.1]/hook',
    'http://[fec0::1]/hook',
    'http://168.63.129.16/hook',
    'http://100.100.100.200/hook',
    'http://[fd20:ce::254]/',
  ]) {
    const res = await api('POST', '/api/webhook-subscription', { token, body: { crProcessId, url, eventTypes: ['*'] } });
    assertInvalid(t, res, 'url');
  }
  // a positive control: the same request with an address the suite allows is accepted
  const allowed = await api('POST', '/api/webhook-subscription', { token, body: { crProcessId, url: 'http://10.0.0.1/hook', eventTypes: ['branch.*'] } });
  t.is(allowed.status, 200, allowed.text);
});
