/**
 * A real Chromium for the tests that need a browser's own judgement (what a page may run, which
 * cookies it carries): Debian's `chromium` package, driven by playwright-core, whose own browser
 * downloads cannot be fetched here. test/run.ts installs the package before ava when a selected
 * file needs it (`ensureChromium`); a test launches one browser per file (`launchChromium`).
 */
import { access, constants, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { aptInstall } from './apt-get.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The import by which a test file says it needs the browser: run.ts looks for it in the selected files. */
const NEEDS_BROWSER = 'helpers/chromium.ts';

/** Flags that work headless as root in a container, with nothing fetched behind the test's back. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const NOT_ROOT =
  `The browser tests need Chromium at ${CHROMIUM_PATH}, and it could not be installed: this run is not root. ` +
  'Install it once as root (Debian/Ubuntu: sudo apt-get install -y chromium), then run the tests again.';

async function present(): Promise<boolean> {
  return access(CHROMIUM_PATH, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Whether the ava arguments select a file that needs the browser: no file named (the whole suite),
 * a name that is not a file (a glob: assumed to), or a file that imports this helper.
 */
export async function selectionNeedsBrowser(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  const files = avaArgs.filter((arg) => !arg.startsWith('-'));
  if (files.length === 0) return true;
  for (const file of files) {
    const text = await readFile(resolve(rootDir, file), 'utf8').catch(() => undefined);
    if (text === undefined || text.includes(NEEDS_BROWSER)) return true;
  }
  return false;
}

/**
 * Installs Debian's chromium when /usr/bin/chromium is missing: `apt-get install -y chromium`, and
 * when that fails (a fresh machine has no package lists) `apt-get update` and the install again.
 * Needs root; otherwise it throws saying what to run.
 */
export async function ensureChromium(): Promise<void> {
  if (await present()) return;
  if (process.getuid?.() !== 0) throw new Error(NOT_ROOT);
  console.log(`# chromium: ${CHROMIUM_PATH} is missing, installing Debian's chromium (about a minute)`);
  const installed = await aptInstall('chromium');
  if (!installed || !(await present())) throw new Error(`apt-get could not install chromium (see its output above); the browser tests need ${CHROMIUM_PATH}`);
}

/**
 * A headless Chromium. playwright-core's `launch` gives it a fresh profile of its own (a new
 * --user-data-dir, removed on close); each `newContext` is a separate cookie jar.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}
