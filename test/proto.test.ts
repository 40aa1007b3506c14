/**
 * The contracts: protos lint clean, each resource's proto is what its declaration writes (the record
 * message, the CRUD RPCs and their messages; field numbers from proto/field-numbers.json), and the
 * generated code is what the protos generate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';
import { staleFiles } from '../scripts/proto-gen.ts';
import { lockWith, protoFileOf, render, staleProtos } from '../scripts/proto-resources.ts';

const LOCK = join(ROOT_DIR, 'proto/field-numbers.json');
const lock = (): Record<string, Record<string, number>> => JSON.parse(readFileSync(LOCK, 'utf8'));
const branchProto = () => readFileSync(join(ROOT_DIR, 'proto', protoFileOf(branch)), 'utf8');

test('protos pass buf lint (STANDARD and COMMENTS)', (t) => {
  t.notThrows(() => execFileSync(join(ROOT_DIR, 'node_modules/.bin/buf'), ['lint', 'proto'], { cwd: ROOT_DIR, stdio: 'pipe' }));
});

test("each resource's proto and the field-number lock are what the declarations write (npm run proto:gen writes them)", (t) => {
  t.deepEqual(staleProtos(), []);
});

test('libs/kit/src/gen is in step with proto/ (npm run proto:gen regenerates it)', (t) => {
  t.deepEqual(staleFiles(), []);
});

test("a resource's proto follows from its declaration and its hand-written parts: a skeleton with them is written into the committed file", (t) => {
  const current = branchProto();
  const handWritten = current.slice(current.indexOf('// Request of ListBranchesByPartner.'));
  const skeleton = [
    'syntax = "proto3";',
    '',
    'package platform.bpm.v1;',
    '',
    '// Branch: a location of a business partner.',
    'service BranchService {',
    '  // Branches of one business partner (404 when the partner is not visible).',
    '  rpc ListBranchesByPartner(ListBranchesByPartnerRequest) returns (ListBranchesByPartnerResponse);',
    '}',
    '',
    'message Branch {}',
    '',
    handWritten,
  ].join('\n');
  t.is(render(branch, skeleton, lock()['platform.bpm.v1.Branch'] ?? {}), current);
});

test('a hand edit of a generated part (a field, its comment, a CRUD RPC) is written back from the declaration', (t) => {
  const current = branchProto();
  const numbers = lock()['platform.bpm.v1.Branch'] ?? {};
  for (const [from, to] of [
    ['optional string phone = 13;', 'optional string phone = 15;'],
    ['  // Postal address.\n', '  // Where it is.\n'],
    ['  // Lists Branches a page at a time.\n  rpc ListBranches(ListBranchesRequest) returns (ListBranchesResponse);\n', ''],
    ['  optional string email = 14;\n', '  optional string email = 14;\n  optional string fax = 15;\n'],
  ] as const) {
    t.true(current.includes(from), from);
    t.is(render(branch, current.replace(from, to), numbers), current, from);
  }
});

test('what the generator cannot place is refused, not dropped: a detached comment or an option after the header', (t) => {
  const numbers = lock()['platform.bpm.v1.Branch'] ?? {};
  for (const stray of ['// A note of its own.\n', 'option java_multiple_files = true;\n']) {
    t.throws(() => render(branch, `${branchProto()}\n${stray}`, numbers), { message: /neither above nor in a message, service or enum/ });
  }
});

test('field numbers never change: a new field takes the next number its message never used, a field taken out is reserved by number and name', (t) => {
  const { email: _email, ...kept } = branch.fields;
  const withoutEmail: Resource = { ...branch, fields: { ...kept, fax: { kind: 'string', doc: 'Fax number.' } } };
  const numbers = lockWith(lock(), [withoutEmail])['platform.bpm.v1.Branch'] ?? {};
  // email keeps 14 in the lock; fax is new and takes 15, not email's 14
  t.like(numbers, { phone: 13, email: 14, fax: 15 });
  const proto = render(withoutEmail, branchProto(), numbers);
  t.regex(proto, /\n {2}\/\/ Fax number\.\n {2}optional string fax = 15;\n/);
  t.regex(proto, /\n {2}reserved 14;\n {2}reserved "email";\n\}/);
  t.notRegex(proto, /optional string email/);
  // and a field added after it skips both
  const more: Resource = { ...withoutEmail, fields: { ...withoutEmail.fields, telex: { kind: 'string', doc: 'Telex.' } } };
  t.like(lockWith({ 'platform.bpm.v1.Branch': numbers }, [more])['platform.bpm.v1.Branch'], { email: 14, fax: 15, telex: 16 });
});

test('the lock numbers each record message 9, 10, 11, … without a gap: no field renumbered to a fresh number, none taken out of it', (t) => {
  for (const [message, numbers] of Object.entries(lock())) {
    const values = Object.values(numbers).sort((a, b) => a - b);
    t.deepEqual(
      values,
      values.map((_, i) => 9 + i),
      message,
    );
  }
});
