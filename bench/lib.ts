/**
 * Helpers of the benchmark scenarios (bench/*.ts), one file each in bench/lib/: the scenario frame
 * (scenario.ts), the platform on a fresh database and child servers (platform.ts), CPU accounting
 * per process (cpu.ts), autocannon runs that refuse to measure errors (measure.ts), plain tables
 * (output.ts), files streamed up as the multipart upload or any body (file-upload.ts), the file
 * scenarios' source, timed transfers and signed downloads (transfers.ts).
 *
 * @example
 * await runScenario('branch-get', async () => {
 *   const platform = await startBenchPlatform();
 *   const token = await login(platform);
 *   const figures = await measure({ url: `${platform.url}/api/branch/1`, headers: { authorization: `Bearer ${token}` } }, settings);
 *   printTable(['req/s', 'p99 ms'], [[fmt(figures.requestsPerSec, 0), fmt(figures.p99, 2)]]);
 * });
 */
export * from './lib/scenario.ts';
export * from './lib/platform.ts';
export * from './lib/cpu.ts';
export * from './lib/measure.ts';
export * from './lib/output.ts';
export * from './lib/file-upload.ts';
export * from './lib/transfers.ts';
export * from './lib/paired-rounds.ts';
