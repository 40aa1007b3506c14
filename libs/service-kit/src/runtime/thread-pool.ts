import { availableParallelism } from 'node:os';

/**
 * Sizes libuv's thread pool to the CPUs this process may use, unless UV_THREADPOOL_SIZE is set
 * already. libuv starts its pool (default 4 threads) at the first task queued to it and reads the
 * variable then, so this module must be the entry point's first import: it is evaluated before any
 * other module can queue work.
 *
 * Why: core-svc hashes and compares passwords with bcrypt on that pool, each a CPU-bound task of
 * tens of milliseconds. With more pool threads than CPUs (4 on 2 cores) they only time-slice the
 * same CPUs — no more logins per second — and the event loop, which serves every other call, waits
 * behind them longer (login-flood: core-svc's event-loop p99 18-22 ms with 4 threads, 14-15 ms with 2).
 *
 * @example
 * import './thread-pool.ts'; // first line of core-svc/src/main.ts
 */
process.env.UV_THREADPOOL_SIZE ??= String(availableParallelism());
