/**
 * The project's docs stand alone: no tracked file cites a document outside the repository; every
 * `docs/interface.md#<anchor>` cited anywhere names a heading of that page, and every decision
 * record cited exists, so renaming a heading or a record breaks this test rather than leaving
 * citations that lead nowhere. The interface page needs nothing else to be read: it links into no
 * decision record, and its generated blocks are what `npm run docs:gen` writes from the code. The
 * decision records (docs/adr/) each carry a date and a status, are short, and are all in the index.
 * Reads the work tree only; the platform the runner starts is not used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import test from 'ava';
import { withBlocks } from '../scripts/docs-gen.ts';

// Built from parts, so that this file does not cite what it forbids.
const outside = [
  ['platform-', 'interface.md'],
  ['shared', '/spec'],
  ['../', 'shared'],
  ['/wo', 'rk/'],
].map((parts) => parts.join(''));

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();

/** Tracked text files: package-lock.json (names of packages only) and binaries are skipped. */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  const texts: { path: string; text: string }[] = [];
  for (const path of paths) {
    if (path === '' || path === 'package-lock.json') continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(`${root}/${path}`);
    } catch {
      continue; // deleted in the work tree, not yet in the index
    }
    if (bytes.subarray(0, 8000).includes(0)) continue;
    texts.push({ path, text: bytes.toString('utf8') });
  }
  return texts;
}

/** The anchors of a Markdown page's headings, as GitHub makes them (repeats get -1, -2, ...). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const files = trackedTexts();

test('no tracked file cites a document outside the repository', (t) => {
  const found: string[] = [];
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const name of outside) if (line.includes(name)) found.push(`${path}:${index + 1} cites ${name}`);
    });
  }
  t.deepEqual(found, []);
});

test('every cited anchor of docs/interface.md is a heading there', (t) => {
  const anchors = headingAnchors(readFileSync(`${root}/docs/interface.md`, 'utf8'));
  const citation = /(?<![\w.-])(?:docs\/)?interface\.md#([\p{L}\p{N}_-]+)/gu;
  const broken: string[] = [];
  let cited = 0;
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const [whole, anchor] of line.matchAll(citation)) {
        cited++;
        if (!anchors.has(anchor!)) broken.push(`${path}:${index + 1} ${whole}`);
      }
    });
  }
  t.true(cited > 100, `only ${cited} citations found: the pattern no longer matches how the code cites`);
  t.deepEqual(broken, []);
});

test('the anchors are made as GitHub makes them, so a renamed heading is caught', (t) => {
  const anchors = headingAnchors('# Top\n\n## Files (dms-file)\n\n```\n## not a heading\n```\n## Retention (dms-svc/src/retention)\n## Top\n');
  t.deepEqual([...anchors], ['top', 'files-dms-file', 'retention-dms-svcsrcretention', 'top-1']);
});

/** The decision records: `docs/adr/NNNN-kebab-title.md`, the index aside. */
const adrDir = `${root}/docs/adr`;
const recordFiles = readdirSync(adrDir)
  .filter((name) => name !== 'README.md')
  .sort();
const records = recordFiles.map((name) => ({ name, text: readFileSync(`${adrDir}/${name}`, 'utf8') }));

// Built from parts, as above: the former page's name is what no file may cite any more.
const formerPage = ['decisions', '.md'].join('');

test('the decision page is gone and nothing cites it but the contract by its sections', (t) => {
  t.false(existsSync(`${root}/docs/${formerPage}`));
  const found: string[] = [];
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const match of line.matchAll(new RegExp(`${formerPage.replace('.', '\\.')}(?!\\s*§)`, 'g'))) {
        found.push(`${path}:${index + 1} ${line.slice(Math.max(0, match.index - 20), match.index + 40)}`);
      }
    });
  }
  t.deepEqual(found, []);
});

test('docs/interface.md links into no decision record', (t) => {
  const page = readFileSync(`${root}/docs/interface.md`, 'utf8');
  const links = page.split('\n').flatMap((line, index) => (/adr\/|\]\((?!https?:|#|\.\.\/README\.md)[^)]*\.md/.test(line) ? [`${index + 1}: ${line}`] : []));
  t.deepEqual(links, []);
});

test("docs/interface.md's generated blocks are what the code writes now", (t) => {
  const page = readFileSync(`${root}/docs/interface.md`, 'utf8');
  t.true(page.includes('<!-- generated:errorCodes begin -->'));
  t.is(withBlocks(page), page, 'run `npm run docs:gen`');
});

test('a generated block that drifted from the code is rewritten', (t) => {
  const page = readFileSync(`${root}/docs/interface.md`, 'utf8');
  const drifted = page.replace('| SVC-SYS-4001 | 404 |', '| SVC-SYS-4001 | 400 |');
  t.not(drifted, page);
  t.is(withBlocks(drifted), page);
  t.throws(() => withBlocks('# no markers\n'), { message: /lacks the markers of the events block/ });
});

test('every decision record is numbered, dated, has a status and the sections of its format', (t) => {
  const wrong: string[] = [];
  records.forEach(({ name, text }, index) => {
    const number = index + 1;
    const fail = (why: string) => wrong.push(`${name}: ${why}`);
    if (!new RegExp(`^${String(number).padStart(4, '0')}-[a-z0-9]+(-[a-z0-9]+)*\\.md$`).test(name))
      fail(`name, not ${String(number).padStart(4, '0')}-kebab-title.md`);
    if (!new RegExp(`^# ${number}\\. \\S`).test(text)) fail(`title, not "# ${number}. …"`);
    const date = /^Date: (\d{4}-\d{2}-\d{2})$/m.exec(text)?.[1];
    if (!date || Number.isNaN(Date.parse(date))) fail('no "Date: YYYY-MM-DD" line');
    const status = /^## Status\n\n(.+)$/m.exec(text)?.[1] ?? '';
    const superseded = /^Superseded by \[(\d+)\. [^\]]+\]\((\d{4}-[\w-]+\.md)\)$/.exec(status);
    if (status !== 'Accepted' && !superseded) fail(`status "${status}", not Accepted or Superseded by [N. title](file)`);
    if (superseded && (!recordFiles.includes(superseded[2]!) || Number(superseded[1]) <= number)) fail(`superseded by ${superseded[2]}, no later record`);
    for (const section of ['Context', 'Decision', 'Consequences']) if (!text.includes(`\n## ${section}\n`)) fail(`no ${section} section`);
  });
  t.true(records.length > 50, `only ${records.length} records`);
  t.deepEqual(wrong, []);
});

test('a decision record is short', (t) => {
  const long = records.flatMap(({ name, text }) => {
    const lines = text.split('\n').length;
    return lines > 150 ? [`${name}: ${lines} lines`] : [];
  });
  t.deepEqual(long, []);
});

test('the index lists every decision record with its number, title and status', (t) => {
  const index = readFileSync(`${adrDir}/README.md`, 'utf8');
  const rows = [...index.matchAll(/^\| (\d{4}) \| \[(.+)\]\(([^)]+)\) \| (.+) \|$/gm)].map((row) => row.slice(1).join(' | '));
  const expected = records.map(({ name, text }) => {
    const title = /^# \d+\. (.+)$/m.exec(text)![1]!.replace(/\|/g, '\\|');
    const status = /^## Status\n\n(.+)$/m.exec(text)![1]!.replace(/^Superseded by \[(\d+)\..*$/, (_, n: string) => `Superseded by ${n.padStart(4, '0')}`);
    return [name.slice(0, 4), title, name, status].join(' | ');
  });
  t.deepEqual(rows, expected);
});

test('every cited decision record exists', (t) => {
  const missing: string[] = [];
  let cited = 0;
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const [, inPath, inLink] of line.matchAll(/(?:^|[^\w-])(?:docs\/)?adr\/(\d{4}-[\w-]+\.md)|\]\((\d{4}-[\w-]+\.md)\)/g)) {
        const file = inPath ?? inLink!;
        cited++;
        if (!recordFiles.includes(file)) missing.push(`${path}:${index + 1} ${file}`);
      }
    });
  }
  t.true(cited > 150, `only ${cited} citations found: the pattern no longer matches how the code cites`);
  t.deepEqual(missing, []);
});
