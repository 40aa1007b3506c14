/**
 * The project's docs stand alone: no tracked file cites a document outside the repository, and every
 * `docs/interface.md#<anchor>` or `docs/decisions.md#<anchor>` cited anywhere names a heading of that
 * page, so renaming a heading breaks this test rather than leaving citations that lead nowhere.
 * Reads the work tree only; the platform the runner starts is not used.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import test from 'ava';

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

test('every cited anchor of docs/interface.md and docs/decisions.md is a heading there', (t) => {
  const pages = {
    interface: headingAnchors(readFileSync(`${root}/docs/interface.md`, 'utf8')),
    decisions: headingAnchors(readFileSync(`${root}/docs/decisions.md`, 'utf8')),
  };
  const citation = /(?<![\w.-])(?:docs\/)?(interface|decisions)\.md#([\p{L}\p{N}_-]+)/gu;
  const broken: string[] = [];
  let cited = 0;
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      for (const [whole, page, anchor] of line.matchAll(citation)) {
        cited++;
        if (!pages[page as keyof typeof pages].has(anchor!)) broken.push(`${path}:${index + 1} ${whole}`);
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
