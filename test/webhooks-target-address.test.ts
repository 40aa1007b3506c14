/**
 * Which addresses a webhook may reach (docs/decisions.md "Webhooks"), as core-svc classifies them
 * with ipaddr.js, under each setting; and a check of a subscription's url by resolving its host.
 */
import test from 'ava';
import { checkTargetUrl, refusalOf } from '../core-svc/src/webhooks/target-address.ts';

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

test('a url is refused when its host resolves to an address it may not reach (400 naming url)', async (t) => {
  await t.notThrowsAsync(checkTargetUrl('http://localhost:8080/hook', development));
  for (const url of ['http://localhost:8080/hook', 'http://10.1.2.3/hook', 'http://[::1]/x', 'https://169.254.169.254/latest']) {
    const error = await t.throwsAsync(checkTargetUrl(url, production));
    t.is((error as { code?: string }).code, 'SVC-SYS-2001', url);
  }
  const metadata = await t.throwsAsync(checkTargetUrl('http://169.254.169.254/', allowPrivate));
  t.is((metadata as { code?: string }).code, 'SVC-SYS-2001');
});
