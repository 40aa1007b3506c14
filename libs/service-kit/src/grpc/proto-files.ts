import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

/** Where the contracts live: `proto/platform/<service>/v1/*.proto`. */
export const PROTO_DIR = join(ROOT_DIR, 'proto');

/**
 * The proto files of a service's package (`platform.<service>.v1`), relative to PROTO_DIR, plus the
 * common ones: what its server reflects, found on disk so that a new entity's proto needs no list.
 *
 * @example
 * protoFilesOf('bpm') // ['platform/bpm/v1/branch.proto', 'platform/bpm/v1/business_partner.proto', 'platform/common/v1/common.proto']
 */
export function protoFilesOf(service: 'core' | 'bpm' | 'dms'): string[] {
  const inDir = (dir: string) =>
    existsSync(join(PROTO_DIR, dir))
      ? readdirSync(join(PROTO_DIR, dir))
          .filter((name) => name.endsWith('.proto'))
          .sort()
          .map((name) => `${dir}/${name}`)
      : [];
  return [...inDir(`platform/${service}/v1`), ...inDir('platform/common/v1')];
}
