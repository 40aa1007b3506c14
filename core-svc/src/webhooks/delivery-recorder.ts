import type { MikroORM } from '@mikro-orm/postgresql';
import { recordDelivered, type ClaimedDelivery, type Delivered } from './delivery-queue.ts';
import type { AttemptResult } from './send.ts';
import { queueFork } from './queue-fork.ts';

/** The most successes one statement records. */
const MOST_PER_BATCH = 64;

/**
 * The dispatcher's record of successful attempts, as a group commit: a success waits for the
 * statement under way (if any) and is then written with every other that came meanwhile, in one
 * statement (recordDelivered). Alone it is written at once; under load, one round trip and one
 * transaction carry many, which is what a delivery's record cost one by one. `record` resolves once
 * its own success is written, and rejects if its batch failed.
 */
export class DeliveryRecorder {
  readonly #orm: MikroORM;
  #waiting: { item: Delivered; done: () => void; failed: (error: unknown) => void }[] = [];
  #writing = false;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  record(delivery: ClaimedDelivery, result: AttemptResult): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.#waiting.push({ item: { delivery, result }, done, failed });
      if (!this.#writing) void this.#write();
    });
  }

  async #write(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, MOST_PER_BATCH);
      try {
        await recordDelivered(
          queueFork(this.#orm),
          batch.map((entry) => entry.item),
        );
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error);
      }
    }
    this.#writing = false;
  }
}
