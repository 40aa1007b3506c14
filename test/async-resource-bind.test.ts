/**
 * libs/kit/src/runtime/patches/async-resource-bind.ts, installed through the patches' entry: AsyncResource.prototype.bind with one `asyncResource`
 * accessor for every bound function, so that a bound function (node:http2 binds one per client
 * request) is garbage for a scavenge as soon as it is unreachable. It must behave as Node's bind,
 * and what it binds must not outlive two scavenges (bench/README.md, "Garbage collection").
 */
import { spawnSync } from 'node:child_process';
import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import test from 'ava';
import { installRuntimePatches } from '@platform/kit/runtime/patches/index.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';

const nodeOwn = AsyncResource.prototype.bind;
installRuntimePatches();
const installed = AsyncResource.prototype.bind;
installRuntimePatches(); // a second call changes nothing

test('the replacement takes the place of Node’s bind, once', (t) => {
  t.not(installed, nodeOwn);
  t.is(AsyncResource.prototype.bind, installed);
});

test('a bound function runs in its resource: its async id, the context it was made in, this, arguments and result', (t) => {
  const store = new AsyncLocalStorage<string>();
  const resource = store.run('made here', () => new AsyncResource('probe'));
  const seen: { id: number; store: string | undefined; self: unknown; args: unknown[] }[] = [];
  function probe(this: unknown, ...args: unknown[]): string {
    seen.push({ id: executionAsyncId(), store: store.getStore(), self: this, args });
    return 'result';
  }
  const receiver = { name: 'receiver' };
  const bound = resource.bind(probe);
  t.is(
    store.run('called here', () => bound.call(receiver, 1, 'two')),
    'result',
  );
  t.deepEqual(seen[0], { id: resource.asyncId(), store: 'made here', self: receiver, args: [1, 'two'] });

  const fixed = { name: 'fixed' };
  const boundToThis = (resource.bind as (fn: typeof probe, thisArg: unknown) => typeof probe)(probe, fixed);
  boundToThis.call(receiver, 3);
  t.deepEqual(seen[1], { id: resource.asyncId(), store: 'made here', self: fixed, args: [3] });
});

test('a bound function keeps the length of fn and passes its errors through', (t) => {
  const resource = new AsyncResource('probe');
  const bound = resource.bind((_a: number, _b: number) => {
    throw new RangeError('from fn');
  });
  t.is(bound.length, 2);
  t.throws(() => bound(1, 2), { instanceOf: RangeError, message: 'from fn' });
  t.false(Object.getOwnPropertyDescriptor(bound, 'length')?.writable);
});

test('the deprecated asyncResource property still reads and writes the resource, through one shared accessor', (t) => {
  const first = new AsyncResource('probe');
  const second = new AsyncResource('probe');
  const a = first.bind(() => 1);
  const b = AsyncResource.bind(() => 2);
  const read = (fn: object) => (fn as { asyncResource?: AsyncResource }).asyncResource;
  t.is(read(a), first);
  t.true(read(b) instanceof AsyncResource);
  (a as { asyncResource?: AsyncResource }).asyncResource = second;
  t.is(read(a), second);
  // the point of the change: no getter or setter per bound function, hence no V8 map per bound function
  const accessorOf = (fn: object) => Object.getOwnPropertyDescriptor(fn, 'asyncResource');
  t.is(accessorOf(a)?.get, accessorOf(b)?.get);
  t.is(accessorOf(a)?.set, accessorOf(b)?.set);
  t.true(accessorOf(a)?.enumerable);
});

test('a non-function is refused with Node’s own error', (t) => {
  const resource = new AsyncResource('probe');
  t.throws(() => resource.bind('not a function' as unknown as () => void), { instanceOf: TypeError, code: 'ERR_INVALID_ARG_TYPE' });
});

/**
 * In a child process (--expose-gc): 20,000 functions bound over 512 bytes each, called and dropped,
 * then two scavenges. What is still on the heap is what they kept alive; a full collection then
 * frees it. With Node's own bind every one survives; with the shared accessor none does.
 */
const probe = `
import v8 from 'node:v8';
import { AsyncResource } from 'node:async_hooks';
if (process.argv[1] === 'shared') (await import('./libs/kit/src/runtime/patches/index.ts')).installRuntimePatches();
globalThis.gc();
const before = v8.getHeapStatistics().used_heap_size;
for (let i = 0; i < 20000; i++) {
  const payload = new Array(64).fill(i);
  new AsyncResource('probe').bind(() => payload.length)();
}
globalThis.gc({ type: 'minor' });
globalThis.gc({ type: 'minor' });
console.log(JSON.stringify({ payload: 20000 * 64 * 8, kept: v8.getHeapStatistics().used_heap_size - before }));
`;

function keptAfterScavenges(bind: 'node' | 'shared'): { payload: number; kept: number } {
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', probe, bind], { cwd: ROOT_DIR, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as { payload: number; kept: number };
}

test('what a bound function reaches does not survive two scavenges', (t) => {
  const node = keptAfterScavenges('node');
  const shared = keptAfterScavenges('shared');
  t.log(
    `kept after two scavenges: Node's bind ${(node.kept / 1e6).toFixed(1)} MB, shared accessor ${(shared.kept / 1e6).toFixed(1)} MB, of ${(node.payload / 1e6).toFixed(1)} MB bound`,
  );
  // the probe sees the retention on this Node; if a Node release no longer has it, the module can go
  t.true(node.kept > node.payload / 2, `Node's own bind kept ${node.kept} bytes of ${node.payload}`);
  t.true(shared.kept < shared.payload / 10, `the shared accessor kept ${shared.kept} bytes of ${shared.payload}`);
});
