/**
 * A module for `node --import` in tests: once MODULE_PROBE_DIR is set, the process writes
 * `<dir>/<process>-<pid>.txt` at once (so a test sees that the probe ran) and appends to it the URL
 * of every `@opentelemetry` module it resolves afterwards, imported or required, by its own code or
 * a package's (Node's in-thread `module.registerHooks`). Given before the telemetry register module,
 * it sees what that module loads too.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { basename, dirname, join } from 'node:path';

const dir = process.env.MODULE_PROBE_DIR;
if (dir) {
  const entry = process.argv[1] ?? 'process';
  const file = join(dir, `${basename(dirname(dirname(entry)))}-${process.pid}.txt`);
  writeFileSync(file, '');
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (resolved.url.includes('/@opentelemetry/')) appendFileSync(file, `${resolved.url}\n`);
      return resolved;
    },
  });
}
