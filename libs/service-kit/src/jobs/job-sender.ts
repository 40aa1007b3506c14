import { PgBoss } from 'pg-boss';
import { JOB_SCHEMA } from './job-queue.ts';

/**
 * What a service process (which serves requests and runs no job) uses to hand work to its worker:
 * an on-demand job sent with its data to the queue the worker takes it from (job-queue.ts). The
 * queue's pg-boss is started on the first send, with no worker, no schedule and no maintenance of
 * its own (the workers do that), on one connection.
 */
export interface JobSender {
  send(name: string, data: object): Promise<string>;
  stop(): Promise<void>;
}

/**
 * @example
 * const sender = jobSender(databaseUrlOf());
 * await sender.send('bpm.import', { runId: 7 });
 */
export function jobSender(url: string, schema = JOB_SCHEMA): JobSender {
  let started: Promise<PgBoss> | undefined;
  const boss = () =>
    (started ??= (async () => {
      const instance = new PgBoss({
        connectionString: url,
        schema,
        migrate: false,
        supervise: false,
        schedule: false,
        max: 1,
        openTelemetry: { enabled: false },
      });
      instance.on('error', () => {});
      await instance.start();
      return instance;
    })());
  return {
    async send(name, data) {
      const instance = await boss();
      // the worker makes its queues as it starts; one sent before that makes it the same way
      if (!(await instance.getQueue(name))) await instance.createQueue(name, { policy: 'standard' }).catch(() => {});
      const id = await instance.send(name, data);
      if (id === null) throw new Error(`job ${name} not sent`);
      return id;
    },
    async stop() {
      if (started) await (await started).stop({ graceful: false, close: true });
    },
  };
}
