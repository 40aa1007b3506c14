/**
 * What the reading of files' words needs on the machine (dms-svc/src/text/): poppler-utils
 * (pdfinfo, pdftotext, pdfimages, pdftoppm), Tesseract 5 with its English and Turkish data, and the
 * DejaVu fonts the tests write their documents in (helpers/documents.ts). dms-worker reads every
 * upload of the suite, so the whole suite needs them; test/run.ts installs what is missing before
 * ava starts (Debian's packages), as root.
 */
import { access, constants } from 'node:fs/promises';
import { aptInstall, selectionImports } from './apt-get.ts';

/** The import by which a test file says it needs the tools: run.ts looks for it in the selected files. */
const NEEDS_TEXT_TOOLS = 'helpers/text-tools.ts';

/** The font the test documents are written in (fonts-dejavu-core): it has every Turkish letter. */
export const DOCUMENT_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** Each package, and a file it installs that says it is there. */
const PACKAGES: readonly (readonly [string, string])[] = [
  ['poppler-utils', '/usr/bin/pdftotext'],
  ['tesseract-ocr', '/usr/bin/tesseract'],
  ['tesseract-ocr-eng', '/usr/share/tesseract-ocr/5/tessdata/eng.traineddata'],
  ['tesseract-ocr-tur', '/usr/share/tesseract-ocr/5/tessdata/tur.traineddata'],
  ['fonts-dejavu-core', DOCUMENT_FONT],
];

const present = (path: string) =>
  access(path, constants.R_OK).then(
    () => true,
    () => false,
  );

/** Whether the ava arguments select a file that needs the tools: the whole suite, a glob, or a file that imports this helper. */
export function selectionNeedsTextTools(avaArgs: readonly string[], rootDir: string): Promise<boolean> {
  return selectionImports(avaArgs, rootDir, NEEDS_TEXT_TOOLS);
}

/** Installs the packages whose files are missing (apt-get, as root); otherwise throws saying what to run. */
export async function ensureTextTools(): Promise<void> {
  const missing: string[] = [];
  for (const [pkg, path] of PACKAGES) if (!(await present(path))) missing.push(pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The text extraction tests need ${missing.join(', ')}, and this run is not root: install them once (sudo apt-get install -y --no-install-recommends ${missing.join(' ')}), then run the tests again.`,
    );
  }
  console.log(`# text tools: installing Debian's ${missing.join(', ')}`);
  if (!(await aptInstall(...missing))) throw new Error(`apt-get could not install ${missing.join(', ')} (see its output above)`);
}
