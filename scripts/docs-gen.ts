/**
 * The parts of docs/interface.md that are written from where their facts live, each between
 * `<!-- generated:<name> begin -->` and `<!-- generated:<name> end -->`, one function per block:
 * - `errorCodes`: the error codes with their HTTP status and when a client gets them
 *   (libs/src/errors/codes.ts), then the answers with a status of their own, in the words of their
 *   English message (libs/src/i18n/messages.ts; a parameter shows as `<field>`).
 *
 *   npm run docs:gen    rewrite the blocks
 *
 * test/docs-stand-alone.test.ts renders the page again and fails on any difference.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from '../libs/src/config/config.ts';
import { ERRORS, OWN_STATUS_ERRORS, type ErrorCode } from '../libs/src/errors/codes.ts';
import { translate } from '../libs/src/i18n/messages.ts';

export const INTERFACE_PAGE = join(ROOT_DIR, 'docs/interface.md');

/** The table of error codes. */
export function errorCodes(): string {
  const rows = (Object.keys(ERRORS) as ErrorCode[]).map((code) => `| ${code} | ${ERRORS[code].http} | ${ERRORS[code].when} |`);
  const own = OWN_STATUS_ERRORS.map((error) => {
    const message = translate('en', error.messageKey).replace(/\{(\w+)\}/g, '<$1>');
    return `| ${error.code} | ${error.http} | ${message} (\`${error.messageKey}\`) |`;
  });
  return [
    '| Code | HTTP | When |',
    '|---|---|---|',
    ...rows,
    '',
    'Some answers carry a code with a status of their own:',
    '',
    '| Code | HTTP | When |',
    '|---|---|---|',
    ...own,
  ].join('\n');
}

/** Every generated block of the page, by the name its markers carry. */
export const BLOCKS: Record<string, () => string> = { errorCodes };

/** `page` with each block's text between its markers replaced by what its function writes now. */
export function renderBlocks(page: string): string {
  let rendered = page;
  for (const [name, write] of Object.entries(BLOCKS)) {
    const begin = `<!-- generated:${name} begin -->`;
    const end = `<!-- generated:${name} end -->`;
    const from = rendered.indexOf(begin);
    const to = rendered.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/interface.md has no markers of the block ${name}`);
    rendered = `${rendered.slice(0, from + begin.length)}\n${write()}\n${rendered.slice(to)}`;
  }
  return rendered;
}

if (import.meta.main) {
  writeFileSync(INTERFACE_PAGE, renderBlocks(readFileSync(INTERFACE_PAGE, 'utf8')));
}
