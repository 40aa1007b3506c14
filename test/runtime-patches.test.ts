/**
 * libs/kit/src/runtime/patches/index.ts: the process-wide patches install only on the exact versions
 * they were written for and measured on, all or none; on any other the installer throws, naming
 * the version it installs on and the upstream change that retires the patch
 * (docs/adr/0058-runtime-patches-live-in-one-module.md).
 */
import { AsyncResource } from 'node:async_hooks';
import { hasSubscribers } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { installedVersions, installRuntimePatches, patchRefusals } from '@platform/kit/runtime/patches/index.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';

const EXACT = { node: 'v24.9.0', grpcJs: '1.14.7' };
const nodeOwnBind = AsyncResource.prototype.bind;
const streamReleaseInstalled = () => hasSubscribers('http2.client.stream.close') && hasSubscribers('http2.server.stream.close');

test.serial('another Node refuses: the installer throws with the exact Node it installs on and installs nothing', (t) => {
  for (const node of ['v24.10.0', 'v24.8.0', 'v26.0.0']) {
    const error = t.throws(() => installRuntimePatches({ ...EXACT, node }));
    t.regex(error.message, new RegExp(`written for node v24\\.9\\.0, found ${node.replaceAll('.', '\\.')}`));
    t.regex(error.message, /nodejs\/node#58618/);
    t.notRegex(error.message, /@grpc\/grpc-js 1\.14\.7/, 'the grpc-js patch fits and is not named');
  }
  t.is(AsyncResource.prototype.bind, nodeOwnBind);
  t.false(streamReleaseInstalled(), 'the patch that fits is not installed either');
});

test.serial('another @grpc/grpc-js refuses: the installer throws with the exact grpc-js it installs on and installs nothing', (t) => {
  const error = t.throws(() => installRuntimePatches({ ...EXACT, grpcJs: '1.14.8' }));
  t.regex(error.message, /written for @grpc\/grpc-js 1\.14\.7, found 1\.14\.8/);
  t.deepEqual(patchRefusals({ node: 'v24.9.1', grpcJs: '1.15.0' }).length, 2);
  t.is(AsyncResource.prototype.bind, nodeOwnBind);
  t.false(streamReleaseInstalled());
});

test.serial('the versions installed here are the ones the patches are written for, and package.json engines names that Node', (t) => {
  t.deepEqual(installedVersions(), EXACT);
  t.deepEqual(patchRefusals(EXACT), []);
  const pkg = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: { node: string } };
  t.is(`v${pkg.engines.node}`, EXACT.node);
  t.is(`v${pkg.devDependencies.node}`, EXACT.node);
});

test.serial('on the exact versions both patches install', (t) => {
  installRuntimePatches(EXACT);
  t.not(AsyncResource.prototype.bind, nodeOwnBind);
  t.true(streamReleaseInstalled());
});
