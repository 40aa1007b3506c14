/**
 * Writes the sections of docs/interface.md that the contracts declare, between their markers
 * (`<!-- generated:<name> begin -->` … `<!-- generated:<name> end -->`), so that the interface states
 * them itself and cannot drift from what the platform does:
 * - `events`: the event catalogue (libs/contracts/src/events.ts);
 * - `accrual-moves`: the accrual's state machine (libs/contracts/src/bpm/accrual-moves.ts);
 * - `labels`: each entity's name and each enum value's label in both languages (the resources' `labels`);
 * - `errorCodes`: the error codes with their HTTP status and when a client gets them
 *   (libs/kit/src/errors/codes.ts), then the answers with a status of their own, in the words of their
 *   English message (libs/kit/src/i18n/messages.ts; a parameter shows as `<field>`).
 *
 *   npm run docs:gen             rewrite the blocks
 *   npm run docs:gen -- --check  exit 1, naming each block that differs from what it would write
 *
 * test/docs-generated.test.ts and test/docs-stand-alone.test.ts run the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCRUAL_LIFECYCLE, ACCRUAL_STATES, accrualMoveList, recordedFields } from '@platform/contracts/bpm/accrual-moves.ts';
import { EVENT_CATALOGUE } from '@platform/contracts/events.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { isScalar, type Resource } from '@platform/kit/resource/resource.ts';
import { ROOT_DIR } from '../libs/kit/src/config/root-dir.ts';
import { ERRORS, OWN_STATUS_ERRORS, type ErrorCode } from '../libs/kit/src/errors/codes.ts';
import { translate } from '../libs/kit/src/i18n/messages.ts';

export const INTERFACE_MD = join(ROOT_DIR, 'docs/interface.md');

const code = (text: string): string => `\`${text}\``;
const codes = (texts: readonly string[], last = 'and'): string =>
  texts.length > 1 ? `${texts.slice(0, -1).map(code).join(', ')} ${last} ${code(texts.at(-1)!)}` : texts.map(code).join('');

/** The event catalogue as a table: each type, its record, when it is written and what its changes name. */
export function eventCatalogue(): string {
  const rows = [...EVENT_CATALOGUE].map(([type, declaration]) => {
    const changes = declaration.changes === 'record' ? 'fields of the record' : declaration.changes.length === 0 ? 'none' : codes(declaration.changes);
    return `| ${code(type)} | ${declaration.entity} | ${declaration.when} | ${changes} |`;
  });
  return ['| Type | Record | Written by | Changes name |', '|---|---|---|---|', ...rows].join('\n');
}

/** The accrual's state machine: its states, where a write is allowed, and a table of its moves. */
export function accrualMoves(): string {
  const rows = accrualMoveList().map(([name, move]) => {
    const body = move.given ? `${code(`{${move.given.param}}`)}${move.given.param === move.given.field ? '' : `, kept as ${code(move.given.field)}`}` : 'none';
    return `| ${code(`POST /api/accrual/{id}/${name}`)} | ${codes(move.from, 'or')} | ${code(move.to)} | ${code(move.role)} | ${body} | ${codes(recordedFields(move))} | ${code(move.event)} |`;
  });
  return [
    `States: ${codes(ACCRUAL_STATES)}. An accrual is created ${code(ACCRUAL_LIFECYCLE.initial)}.`,
    `A \`PUT\` is allowed while it is ${codes(ACCRUAL_LIFECYCLE.editableIn, 'or')}, a \`DELETE\` while it is`,
    `${codes(ACCRUAL_LIFECYCLE.deletableIn, 'or')}; otherwise 409 \`SVC-SYS-4004\`.`,
    '',
    '| Move | From | To | Role | Body (optional) | Records | Event |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The entities' names, then the enum values' labels, in English and Turkish. */
export function labels(): string {
  const resources: readonly Resource[] = [...coreResources, ...bpmResources, ...dmsResources];
  const names = resources.map(({ path, labels: l }) => `| ${code(path)} | ${l.en.one} / ${l.en.other} | ${l.tr.one} / ${l.tr.other} |`);
  const values = resources.flatMap(({ path, fields, labels: l }) =>
    Object.entries(fields).flatMap(([name, spec]) =>
      isScalar(spec) && spec.kind === 'enum'
        ? (spec.values ?? []).map(
            (value) => `| ${code(`${path}.${name}`)} | ${code(value)} | ${l.en.values?.[name]?.[value] ?? ''} | ${l.tr.values?.[name]?.[value] ?? ''} |`,
          )
        : [],
    ),
  );
  return [
    '| Entity | English (one / other) | Turkish (one / other) |',
    '|---|---|---|',
    ...names,
    '',
    '| Field | Value | English | Turkish |',
    '|---|---|---|---|',
    ...values,
  ].join('\n');
}

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

/** The generated blocks of docs/interface.md, by marker name. */
export const BLOCKS: Readonly<Record<string, () => string>> = { events: eventCatalogue, 'accrual-moves': accrualMoves, labels, errorCodes };

/** `text` with each block's content replaced by what its generator writes; throws when a block's markers are missing. */
export function withBlocks(text: string, blocks: Readonly<Record<string, () => string>> = BLOCKS): string {
  let out = text;
  for (const [name, render] of Object.entries(blocks)) {
    const begin = `<!-- generated:${name} begin -->`;
    const end = `<!-- generated:${name} end -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end, from);
    if (from === -1 || to === -1) throw new Error(`docs/interface.md lacks the markers of the ${name} block`);
    out = `${out.slice(0, from + begin.length)}\n${render()}\n${out.slice(to)}`;
  }
  return out;
}

/** The names of the blocks whose content differs from what their generators write. */
export function driftedBlocks(text: string): string[] {
  return Object.keys(BLOCKS).filter((name) => withBlocks(text, { [name]: BLOCKS[name]! }) !== text);
}

if (import.meta.main) {
  const text = readFileSync(INTERFACE_MD, 'utf8');
  if (process.argv.includes('--check')) {
    const drifted = driftedBlocks(text);
    if (drifted.length > 0) {
      console.error(`docs/interface.md differs from the contracts in: ${drifted.join(', ')} (run npm run docs:gen)`);
      process.exit(1);
    }
    console.log('docs/interface.md: the generated blocks are current');
  } else {
    writeFileSync(INTERFACE_MD, withBlocks(text));
    console.log(`regenerated the ${Object.keys(BLOCKS).join(', ')} blocks of docs/interface.md`);
  }
}
