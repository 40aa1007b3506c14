/**
 * A copy of an environment without some variables: given to startPlatform with `ports: 'free'`, the
 * ports and addresses left out are picked by the start itself, and picked again when one turns out
 * taken before its service binds it (scripts/lib/free-ports.ts, test/start-ports.test.ts).
 */
export function without(env: Record<string, string | undefined>, ...names: string[]): Record<string, string | undefined> {
  const copy = { ...env };
  for (const name of names) delete copy[name];
  return copy;
}
