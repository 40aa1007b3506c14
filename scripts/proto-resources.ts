/**
 * Writes the parts of each resource's proto that its declaration (libs/contracts) states: the record
 * message, the CRUD RPCs of its service and their request and response messages. Everything else in
 * the file is hand-written and kept as it stands: the header, the service's comment, other RPCs and
 * messages. Field numbers never change: each record field's number is recorded in the lock file the
 * first time the field is written, and a field taken out of a declaration becomes `reserved` there
 * (its number and name), so that neither is ever given to another field.
 *
 * `npm run proto:gen` runs it before buf (scripts/proto-gen.ts), and `-- --check` fails when a proto
 * or the lock differs from what the declarations write. A new resource starts its proto with the
 * header, `service <Name>Service {}` and `message <Name> {}` (what its declaration imports from the
 * generated code); proto:gen writes the rest.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { ROOT_DIR } from '../libs/kit/src/config/root-dir.ts';
import { apiFields, keyOf, offers, type COMMON_FIELDS, type FieldSpec, type Operation, type Resource } from '../libs/kit/src/resource/resource.ts';

/** Where the protos and the lock of their field numbers live. */
const PATHS = { protoDir: join(ROOT_DIR, 'proto'), lock: join(ROOT_DIR, 'proto/field-numbers.json') };

const RESOURCES: readonly Resource[] = [...coreResources, ...bpmResources, ...dmsResources];

/** The numbers of the common fields, the same in every record message (docs/interface.md#records). */
const COMMON_NUMBERS: Readonly<Record<keyof typeof COMMON_FIELDS, number>> = {
  id: 1,
  version: 2,
  crProcessId: 3,
  status: 4,
  createdAt: 5,
  updatedAt: 6,
  createdBy: 7,
  updatedBy: 8,
};

/** The comments of the common fields, unless a declaration declares the field again with its own. */
const COMMON_DOCS: Readonly<Record<keyof typeof COMMON_FIELDS, string>> = {
  id: 'Generated on create.',
  version: 'Optimistic lock: 0 on create, +1 on every update.',
  crProcessId: 'Tenant.',
  status: 'true = active, false = passive.',
  createdAt: 'ISO 8601 UTC; read-only.',
  updatedAt: 'ISO 8601 UTC; read-only.',
  createdBy: 'userCode of the creator; read-only.',
  updatedBy: 'userCode of the last updater; read-only.',
};

/** Per record message (`platform.bpm.v1.Branch`), the number of every field it has ever had but the common ones. */
type Lock = Record<string, Record<string, number>>;

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');

/** `platform.bpm.v1`, from a generated method path `/platform.bpm.v1.BranchService/GetBranch`. */
function packageOf(resource: Resource): string {
  const path = Object.values(resource.grpc)[0]?.path ?? '';
  return (path.split('/')[1] ?? '').replace(/\.[^.]+$/, '');
}

/** `platform/bpm/v1/branch.proto`, relative to the proto directory. */
export function protoFileOf(resource: Resource): string {
  return `${packageOf(resource).replace(/\./g, '/')}/${snake(resource.name)}.proto`;
}

function protoType(name: string, spec: FieldSpec): string {
  if (spec.kind === 'strings') return 'repeated string';
  if (spec.kind === 'objects') {
    if (!spec.message) throw new Error(`${name}: an objects field names its proto message (message)`);
    return `repeated ${spec.message}`;
  }
  const type = spec.kind === 'long' ? 'int64' : spec.kind === 'int' ? 'int32' : spec.kind === 'boolean' ? 'bool' : 'string';
  return `optional ${type}`;
}

/** A top-level block of a proto file: a message, service or enum with the comment above it. */
interface Block {
  name: string;
  text: string;
}

/**
 * Splits a proto file into its header (syntax, package, imports) and its top-level blocks, each
 * with the comment right above it; anything else after the header (a detached comment, an option)
 * is refused rather than dropped.
 */
function parse(text: string): { header: string; blocks: Block[] } {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let header: string[] | undefined;
  let pending: string[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const preamble: string[] = [];
  for (const line of lines) {
    if (current) {
      current.lines.push(line);
      if (line === '}') {
        blocks.push({ name: current.name, text: current.lines.join('\n') });
        current = undefined;
      }
      continue;
    }
    const open = /^(?:message|service|enum) (\w+) \{/.exec(line);
    if (open?.[1]) {
      header ??= [...preamble];
      current = { name: open[1], lines: [...pending, line] };
      pending = [];
      if (line.endsWith('}')) {
        blocks.push({ name: current.name, text: current.lines.join('\n') });
        current = undefined;
      }
    } else if (line.startsWith('//')) pending.push(line);
    else if (!header) {
      preamble.push(...pending, line);
      pending = [];
    } else if (line.trim() !== '' || pending.length > 0) {
      // nothing of a hand-written part may be lost on the way: only blocks follow the header
      throw new Error(`neither above nor in a message, service or enum: ${pending[0] ?? line}`);
    }
  }
  if (current) throw new Error(`unclosed block ${current.name}`);
  return { header: (header ?? preamble).join('\n').trimEnd(), blocks };
}

interface Rpc {
  name: string;
  text: string;
}

/** The CRUD RPCs of the resource's set, in the order every service states them. */
function crudRpcs(r: Resource): Rpc[] {
  const n = r.name;
  const p = r.plural;
  const a = /^[AEIO]/.test(n) ? 'an' : 'a';
  const all: [Operation, string, string][] = [
    ['get', `Returns one ${n}.`, `rpc Get${n}(Get${n}Request) returns (${n});`],
    ['create', `Creates ${a} ${n}; its version starts at 0.`, `rpc Create${n}(Create${n}Request) returns (${n});`],
    ['update', 'Updates the fields named in update_mask when version equals the stored one.', `rpc Update${n}(Update${n}Request) returns (${n});`],
    ['delete', `Deletes ${a} ${n}; refused while other records reference it.`, `rpc Delete${n}(Delete${n}Request) returns (google.protobuf.Empty);`],
    ['list', `Lists ${p} a page at a time.`, `rpc List${p}(List${p}Request) returns (List${p}Response);`],
    ['stats', `Counts ${p} by status.`, `rpc Get${n}Stats(Get${n}StatsRequest) returns (platform.common.v1.Statistics);`],
  ];
  return all
    .filter(([operation]) => offers(r, operation))
    .map(([operation, doc, rpc]) => ({ name: /rpc (\w+)/.exec(rpc)?.[1] ?? '', text: `  // ${r.protoDocs?.rpcs?.[operation] ?? doc}\n  ${rpc}` }));
}

/** Every RPC the CRUD set may hold, offered or not: the generator owns these names. */
function crudRpcNames(r: Resource): Set<string> {
  const n = r.name;
  const p = r.plural;
  return new Set([`Get${n}`, `Create${n}`, `Update${n}`, `Delete${n}`, `List${p}`, `Get${n}Stats`]);
}

function message(name: string, doc: string, fields: string[]): Block {
  return { name, text: [`// ${doc}`, `message ${name} {`, ...fields, '}'].join('\n') };
}

const field = (doc: string, declaration: string): string => `  // ${doc}\n  ${declaration};`;

/** The record message: the common fields, then the declared ones by number, then the numbers it may not reuse. */
function recordMessage(r: Resource, numbers: Record<string, number>): Block {
  const lines: { number: number; text: string }[] = [];
  for (const [name, spec] of Object.entries(apiFields(r))) {
    const number = name in COMMON_NUMBERS ? COMMON_NUMBERS[name as keyof typeof COMMON_NUMBERS] : numbers[name];
    if (number === undefined) throw new Error(`${r.name}.${name} has no number`);
    const common = name as keyof typeof COMMON_DOCS;
    const doc = spec.doc ?? r.protoDocs?.fields?.[common] ?? COMMON_DOCS[common];
    if (!doc) throw new Error(`${r.path}: field ${name} has no doc (buf lint COMMENTS wants one above every field)`);
    lines.push({ number, text: field(doc, `${protoType(`${r.path}.${name}`, spec)} ${snake(name)} = ${number}`) });
  }
  const gone = Object.entries(numbers).filter(([name]) => !(name in r.fields));
  const reserved = gone.length
    ? [
        `  // Of fields taken out: never to be given to another field.`,
        `  reserved ${gone.map(([, number]) => number).join(', ')};`,
        `  reserved ${gone.map(([name]) => `"${snake(name)}"`).join(', ')};`,
      ]
    : [];
  return message(r.name, `${r.name} record.`, [...lines.sort((a, b) => a.number - b.number).map((line) => line.text), ...reserved]);
}

/** The request and response messages of the CRUD RPCs the resource offers. */
function crudMessages(r: Resource): Block[] {
  const n = r.name;
  const p = r.plural;
  const record = snake(n);
  const key = keyOf(r);
  const keyField = field(
    `Key of the ${n}.`,
    `${key === 'id' ? 'int64' : protoType(key, apiFields(r)[key] as FieldSpec).replace('optional ', '')} ${snake(key)} = 1`,
  );
  const ifMatch = (number: number) => field('The If-Match behind the call, when it had one.', `platform.common.v1.Precondition if_match = ${number}`);
  const blocks: [Operation, Block][] = [
    ['get', message(`Get${n}Request`, `Request of Get${n}.`, [keyField])],
    [
      'create',
      message(`Create${n}Request`, `Request of Create${n}.`, [field('The new record; id, version and audit fields are ignored.', `${n} ${record} = 1`)]),
    ],
    [
      'update',
      message(`Update${n}Request`, `Request of Update${n}.`, [
        keyField,
        field('New field values; version (required without if_match) must equal the stored version.', `${n} ${record} = 2`),
        field(`Fields to write; a named field that is unset in ${record} is cleared.`, 'google.protobuf.FieldMask update_mask = 3'),
        ifMatch(4),
      ]),
    ],
    ['delete', message(`Delete${n}Request`, `Request of Delete${n}.`, [keyField, ifMatch(2)])],
    ['list', message(`List${p}Request`, `Request of List${p}.`, [field('Paging, sorting, search and filter.', 'platform.common.v1.PageRequest page = 1')])],
    [
      'list',
      message(`List${p}Response`, `Response of List${p}.`, [
        field('Page items.', `repeated ${n} content = 1`),
        field('Page arithmetic.', 'platform.common.v1.PageMeta meta = 2'),
      ]),
    ],
    [
      'stats',
      message(`Get${n}StatsRequest`, `Request of Get${n}Stats.`, [
        field("Narrows a super user's statistics to one tenant; ignored for other callers.", 'optional int64 cr_process_id = 1'),
      ]),
    ],
  ];
  return blocks.filter(([operation]) => offers(r, operation)).map(([, block]) => block);
}

/** Every message name the CRUD set may hold, offered or not. */
function crudMessageNames(r: Resource): Set<string> {
  const n = r.name;
  const p = r.plural;
  return new Set([
    n,
    `Get${n}Request`,
    `Create${n}Request`,
    `Update${n}Request`,
    `Delete${n}Request`,
    `List${p}Request`,
    `List${p}Response`,
    `Get${n}StatsRequest`,
  ]);
}

/** The service block: its hand-written comment and RPCs kept, the CRUD RPCs written first. */
function serviceBlock(r: Resource, existing: Block | undefined): Block {
  const name = `${r.name}Service`;
  const lines = (existing?.text ?? `service ${name} {}`).replace(/\{\}$/, '{\n}').split('\n');
  // a new service's comment, until one is written (buf lint COMMENTS)
  if (!lines[0]?.startsWith('//')) lines.unshift(`// ${r.plural}.`);
  const open = lines.findIndex((line) => line.startsWith('service '));
  const body = lines.slice(open + 1, -1);
  // the body's RPCs, each with its comment lines; the CRUD ones are dropped and written anew
  const own: string[] = [];
  let pending: string[] = [];
  for (const line of body) {
    if (line.trim().startsWith('//')) {
      pending.push(line);
      continue;
    }
    const rpc = /rpc (\w+)\(/.exec(line)?.[1];
    if (!rpc || !crudRpcNames(r).has(rpc)) own.push(...pending, line);
    pending = [];
  }
  const rpcs = [...crudRpcs(r).map((rpc) => rpc.text), ...own.filter((line) => line.trim() !== '')];
  return { name, text: [...lines.slice(0, open + 1), ...rpcs, '}'].join('\n') };
}

const HEADER = (r: Resource) =>
  [
    'syntax = "proto3";',
    '',
    `package ${packageOf(r)};`,
    '',
    'import "google/protobuf/empty.proto";',
    'import "google/protobuf/field_mask.proto";',
    'import "platform/common/v1/common.proto";',
  ].join('\n');

/** The header with the imports the CRUD set's messages need, those missing added after the others. */
function withImports(header: string, r: Resource): string {
  const needed = [
    ...(offers(r, 'delete') ? ['google/protobuf/empty.proto'] : []),
    ...(offers(r, 'update') ? ['google/protobuf/field_mask.proto'] : []),
    'platform/common/v1/common.proto',
  ].filter((file) => !header.includes(`import "${file}";`));
  if (needed.length === 0) return header;
  const lines = header.split('\n');
  const last = lines.findLastIndex((line) => line.startsWith('import ') || line.startsWith('package '));
  const imports = needed.map((file) => `import "${file}";`);
  lines.splice(last + 1, 0, ...(lines[last]?.startsWith('package ') ? ['', ...imports] : imports));
  return lines.join('\n');
}

/** The resource's proto as its declaration writes it over `current` (undefined: a new file). */
export function render(r: Resource, current: string | undefined, numbers: Record<string, number>): string {
  const parsed = current ? parse(current) : { header: HEADER(r), blocks: [] };
  const header = withImports(parsed.header, r);
  const blocks = parsed.blocks;
  const service = serviceBlock(
    r,
    blocks.find((block) => block.name === `${r.name}Service`),
  );
  const owned = new Map([recordMessage(r, numbers), ...crudMessages(r)].map((block) => [block.name, block]));
  const ownedNames = crudMessageNames(r);
  // the service first, then the generated messages in their order, then every hand-written block as it was
  const rest = blocks.filter((block) => block.name !== service.name && !ownedNames.has(block.name));
  return [header, service.text, ...[...owned.values()].map((block) => block.text), ...rest.map((block) => block.text)].join('\n\n') + '\n';
}

/** The lock with a number for every declared field: a field new to its message takes the next number never used there. */
export function lockWith(lock: Lock, resources: readonly Resource[] = RESOURCES): Lock {
  const next: Lock = {};
  for (const r of resources) {
    const key = `${packageOf(r)}.${r.name}`;
    const numbers = { ...lock[key] };
    for (const name of Object.keys(r.fields)) {
      if (name in COMMON_NUMBERS || numbers[name] !== undefined) continue;
      numbers[name] = Math.max(Object.keys(COMMON_NUMBERS).length, ...Object.values(numbers)) + 1;
    }
    next[key] = numbers;
  }
  return Object.fromEntries(Object.entries({ ...lock, ...next }).sort(([a], [b]) => a.localeCompare(b)));
}

function readLock(): Lock {
  return existsSync(PATHS.lock) ? (JSON.parse(readFileSync(PATHS.lock, 'utf8')) as Lock) : {};
}

/** Each file the declarations write, with the text they write: the protos and the lock. */
export function generated(): Map<string, string> {
  const lock = lockWith(readLock());
  const files = new Map<string, string>();
  for (const r of RESOURCES) {
    const path = join(PATHS.protoDir, protoFileOf(r));
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    files.set(path, render(r, current, lock[`${packageOf(r)}.${r.name}`] ?? {}));
  }
  files.set(PATHS.lock, `${JSON.stringify(lock, null, 2)}\n`);
  return files;
}

/** The files that differ from what the declarations write (empty when in step). */
export function staleProtos(): string[] {
  return [...generated()]
    .filter(([path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text)
    .map(([path]) => relative(ROOT_DIR, path))
    .sort();
}

/** Writes every file that differs from what the declarations write; answers their paths. */
export function writeResourceProtos(): string[] {
  const written: string[] = [];
  for (const [path, text] of generated()) {
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    writeFileSync(path, text);
    written.push(relative(ROOT_DIR, path));
  }
  return written;
}
