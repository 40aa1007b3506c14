/**
 * The path of helpers/ready-stub.ts, a process that reports ready at once and waits to be stopped:
 * the entry to give startPlatform for a service a test does not need, so that it can start a
 * gateway or a service of its own against the suite's others.
 *
 * @example
 * await startPlatform({ env, entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB }, log: suiteLog() });
 */
export const READY_STUB = new URL('./ready-stub.ts', import.meta.url).pathname;

/**
 * The path of helpers/binding-stub.ts: a stand-in that binds the port of the address in the variable
 * STUB_BIND_VAR names, as a service binds its own, and exits with EADDRINUSE when it is taken.
 */
export const BINDING_STUB = new URL('./binding-stub.ts', import.meta.url).pathname;
