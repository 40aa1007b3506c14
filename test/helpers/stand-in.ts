/**
 * The path of helpers/ready-stub.ts, a process that reports ready at once and waits to be stopped:
 * the entry to give startPlatform for a service a test does not need, so that it can start a
 * gateway or a service of its own against the suite's others.
 *
 * @example
 * await startPlatform({ env, entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB }, log: suiteLog() });
 */
export const READY_STUB = new URL('./ready-stub.ts', import.meta.url).pathname;
