import { createRequire } from 'node:module';
import { shareBoundResourceAccessor } from './async-resource-bind.ts';
import { releaseClosedHttp2Streams } from './release-streams.ts';

/**
 * The process-wide patches of runtime and library internals, and the only way to install them.
 * Each was measured on one exact version of what it patches (bench/README.md, "Garbage
 * collection") and waits for an upstream change that retires it; on any other version none is
 * installed and the process does not start (docs/adr/0058-runtime-patches-live-in-one-module.md).
 */

/** The versions found in this process: Node's `process.version` and @grpc/grpc-js's package version. */
export interface RuntimeVersions {
  node: string;
  grpcJs: string;
}

interface Patch {
  name: string;
  /** What the patch is written for, as `RuntimeVersions` spells it. */
  on: keyof RuntimeVersions;
  version: string;
  /** The upstream change whose release retires the patch. */
  retiredBy: string;
  install(): void;
}

export const RUNTIME_PATCHES: readonly Patch[] = [
  {
    name: 'AsyncResource.prototype.bind with one shared asyncResource accessor (async-resource-bind.ts)',
    on: 'node',
    version: 'v24.9.0',
    retiredBy: 'nodejs/node#58618 (DEP0172 end of life: bound functions lose the asyncResource property, and with it the accessor pair per call)',
    install: shareBoundResourceAccessor,
  },
  {
    name: 'listeners of finished HTTP/2 streams released (release-streams.ts)',
    on: 'grpcJs',
    version: '1.14.7',
    retiredBy:
      "@grpc/grpc-js removing its per-call listeners from a call's Http2Stream once the call has ended, client side (subchannel-call) and server side (server-interceptors); no upstream issue tracks it yet",
    install: releaseClosedHttp2Streams,
  },
];

/** The installed @grpc/grpc-js's version, from its package.json. */
export function installedVersions(): RuntimeVersions {
  const require = createRequire(import.meta.url);
  return { node: process.version, grpcJs: (require('@grpc/grpc-js/package.json') as { version: string }).version };
}

/**
 * Why each patch refuses `found` (pure): one line per patch whose exact version differs, naming
 * the version it installs on and the upstream change that retires it; none when all fit.
 *
 * @example
 * patchRefusals({ node: 'v24.10.0', grpcJs: '1.14.7' });
 * // ['AsyncResource.prototype.bind … is written for node v24.9.0, found v24.10.0; …']
 */
export function patchRefusals(found: RuntimeVersions): string[] {
  return RUNTIME_PATCHES.filter((patch) => found[patch.on] !== patch.version).map(
    (patch) =>
      `${patch.name} is written for ${patch.on === 'node' ? 'node' : '@grpc/grpc-js'} ${patch.version}, found ${found[patch.on]}; ` +
      `measure it again on the new version and update the version here, or remove it once ${patch.retiredBy} is released`,
  );
}

/**
 * Installs every patch, or none: throws at once when any patch's exact version is not the one
 * found, so that no process runs a patch on a runtime it was not tested on. Calling it again
 * installs nothing more. Each process calls it first thing (runService, the gateway's Backends).
 *
 * @example
 * installRuntimePatches(); // at process start
 */
export function installRuntimePatches(found: RuntimeVersions = installedVersions()): void {
  const refusals = patchRefusals(found);
  if (refusals.length > 0) throw new Error(`runtime patches refused:\n${refusals.join('\n')}`);
  for (const patch of RUNTIME_PATCHES) patch.install();
}
