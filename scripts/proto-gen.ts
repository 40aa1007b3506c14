/**
 * Writes the resources' parts of proto/ from their declarations (scripts/proto-resources.ts), then
 * regenerates the ts-proto code in libs/kit/src/gen from proto/ with buf and the local
 * protoc-gen-ts_proto plugin (both npm packages: nothing is downloaded).
 *
 *   npm run proto:gen             rewrite the protos' resource parts and libs/kit/src/gen
 *   npm run proto:gen -- --check  exit 1 when a proto differs from what the declarations write, or
 *                                 libs/kit/src/gen from what the protos generate
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT_DIR } from '../libs/kit/src/config/root-dir.ts';

const GEN_DIR = join(ROOT_DIR, 'libs/kit/src/gen');
const BUF = join(ROOT_DIR, 'node_modules/.bin/buf');

/** Generates into `outDir` (buf writes libs/kit/src/gen below it). */
export function generate(outDir: string): void {
  execFileSync(BUF, ['generate', 'proto', '--template', 'proto/buf.gen.yaml', '-o', outDir], { cwd: ROOT_DIR, stdio: 'inherit' });
}

function files(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return found;
}

/** The generated files that differ from what the protos generate now (empty when in step). */
export function staleFiles(): string[] {
  const out = mkdtempSync(join(tmpdir(), 'proto-gen-'));
  try {
    generate(out);
    const fresh = files(join(out, 'libs/kit/src/gen'));
    const current = files(GEN_DIR);
    const names = new Set([...fresh.keys(), ...current.keys()]);
    return [...names].filter((name) => fresh.get(name) !== current.get(name)).sort();
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    const { staleProtos } = await import('./proto-resources.ts');
    const stale = staleProtos();
    if (stale.length > 0) {
      console.error(`the protos differ from the declarations; run npm run proto:gen\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    const staleGen = staleFiles();
    if (staleGen.length > 0) {
      console.error(`generated code is stale; run npm run proto:gen\n  ${staleGen.join('\n  ')}`);
      process.exit(1);
    }
    console.log('proto/ is in step with the declarations, and the generated code with proto/');
  } else {
    // first from the protos as they are: a new resource's declaration imports its generated message
    // and service, which its proto's empty `message` and `service` blocks give it
    rmSync(GEN_DIR, { recursive: true, force: true });
    generate(ROOT_DIR);
    const { writeResourceProtos } = await import('./proto-resources.ts');
    const written = writeResourceProtos();
    if (written.length > 0) {
      console.log(`wrote the declarations' parts of\n  ${written.join('\n  ')}`);
      rmSync(GEN_DIR, { recursive: true, force: true });
      generate(ROOT_DIR);
    }
    console.log(`regenerated ${relative(ROOT_DIR, GEN_DIR)}`);
  }
}
