/**
 * The sections of docs/interface.md that the contracts declare are what scripts/docs-gen.ts writes
 * from them (the event catalogue, the accrual's moves): a declaration changed without
 * `npm run docs:gen` fails here. Reads the work tree only.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { BLOCKS, driftedBlocks, INTERFACE_MD } from '../scripts/docs-gen.ts';

const text = readFileSync(INTERFACE_MD, 'utf8');

test('the generated blocks of docs/interface.md are current (else run npm run docs:gen)', (t) => {
  t.deepEqual(Object.keys(BLOCKS), ['events', 'accrual-moves', 'labels', 'errorCodes']);
  t.deepEqual(driftedBlocks(text), []);
});

test('a block edited by hand, or a declaration changed, is drift', (t) => {
  t.deepEqual(driftedBlocks(text.replace('| `accrual:approve` |', '| `accrual:write` |')), ['accrual-moves']);
  t.deepEqual(driftedBlocks(text.replace(/^\| `session\.ended` .*\n/m, '')), ['events']);
});

test('the blocks state what the interface promises: every catalogued move and the accrual machine', (t) => {
  for (const type of ['branch.created', 'accrual.approved', 'dms-file.uploaded', 'dms-share-link.accessed', 'user-info.password-changed', 'session.ended']) {
    t.true(text.includes(`| \`${type}\` |`), type);
  }
  t.true(text.includes('| `POST /api/accrual/{id}/cancel` | `PENDING` or `APPROVED` | `CANCELLED` | `accrual:cancel` |'));
});
