/**
 * The scan of a run's platform log for secrets (the operations issue: "secrets redacted … a test
 * scans the logs of a whole test run for them"): the secrets the run knows by value, and those that
 * have a shape of their own, which catches every JWT the run issued or forged without a list of them.
 */

export interface KnownSecret {
  /** What it is, for the report (the value itself is never printed). */
  name: string;
  value: string;
}

export interface Leak {
  name: string;
  /** 1-based line of the log. */
  line: number;
  /** The line's `[service]` prefix, when it has one. */
  source: string;
}

export interface ScanResult {
  lines: number;
  /** Lines that are the gateway's access lines: a log without them was not written at info. */
  accessLines: number;
  leaks: Leak[];
}

const SHAPED: readonly { name: string; pattern: RegExp }[] = [
  { name: 'a JWT', pattern: /eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*/ },
  { name: 'a bcrypt password hash', pattern: /\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}/ },
  { name: 'a signed URL token', pattern: /[?&]token=[\w-]{16,}/ },
];

/** The forms a value takes in a JSON line: as is, and escaped as a JSON string. */
function formsOf(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

/**
 * Every line of `log` that holds a known secret (in any form a JSON line gives it) or a shaped one.
 *
 * @example
 * scanForSecrets(readFileSync(logFile, 'utf8'), [{ name: 'the API key', value: apiKey }]).leaks // []
 */
export function scanForSecrets(log: string, known: readonly KnownSecret[]): ScanResult {
  const needles = known.filter((secret) => secret.value !== '').flatMap((secret) => formsOf(secret.value).map((form) => ({ name: secret.name, form })));
  const lines = log.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const leaks: Leak[] = [];
  let accessLines = 0;
  lines.forEach((text, index) => {
    if (text.includes('"msg":"request completed"') || text.includes('"msg":"request aborted"')) accessLines++;
    const source = /^\[([\w-]+)\]/.exec(text)?.[1] ?? '';
    for (const { name, form } of needles) if (text.includes(form)) leaks.push({ name, line: index + 1, source });
    for (const { name, pattern } of SHAPED) if (pattern.test(text)) leaks.push({ name, line: index + 1, source });
  });
  return { lines: lines.length, accessLines, leaks };
}

/** The outcome of the run's closing scan, as one more test for the `N passed, M failed` line. */
export interface RunScan {
  passed: boolean;
  /** TAP-style lines for the run's output (never a secret's value). */
  report: string[];
}

/**
 * The closing step of `npm test`, after every test and with the platform stopped (its log complete):
 * scans `log` for the platform's own secrets, the passwords the tests sent (`noted`, see
 * used-secrets.ts) and shaped secrets. It fails on any leak, and on a log without access lines,
 * which would mean the scan looked at the wrong thing.
 */
export function scanRunLog(log: string, platformSecrets: Readonly<Record<string, string>>, noted: readonly string[]): RunScan {
  const known: KnownSecret[] = [
    ...Object.entries(platformSecrets).map(([name, value]) => ({ name, value })),
    ...noted.map((value) => ({ name: 'a password a test sent', value })),
  ];
  const result = scanForSecrets(log, known);
  const title = `the platform log of the whole run holds no secret (${result.lines} lines, ${result.accessLines} access lines, ${known.length} known secrets)`;
  if (result.accessLines === 0)
    return { passed: false, report: [`not ok - ${title}`, '  # no access line in the log: nothing was scanned that the run wrote'] };
  if (result.leaks.length === 0) return { passed: true, report: [`ok - ${title}`] };
  const shown = result.leaks.slice(0, 20).map((leak) => `  # ${leak.name} in line ${leak.line}${leak.source ? ` (${leak.source})` : ''}`);
  const more = result.leaks.length > shown.length ? [`  # … ${result.leaks.length - shown.length} more`] : [];
  return { passed: false, report: [`not ok - ${title}`, ...shown, ...more] };
}
