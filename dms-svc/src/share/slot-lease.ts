import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { renewSlot } from './download-slot.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** A download's hold on its slot while its bytes flow. */
export interface SlotLease {
  /** Stops renewing (the download ended); a renewal under way can no longer report the slot lost. */
  stop(): void;
}

/**
 * Renews the lease of slot `slotId` every third of `leaseSeconds` until stopped, so that a renewal
 * or two may fail (a database hiccup) without the slot lapsing. When a renewal finds the lease gone
 * (it lapsed: this process stalled, or lost the database, for a whole lease, and another download
 * may hold the place now), `onLost` is called once: the download must stop, or the link could
 * serve more than maxDownloads at once.
 */
export function holdSlotLease(orm: MikroORM, slotId: number, leaseSeconds: number, log: Logger, onLost: () => void): SlotLease {
  let stopped = false;
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing) return;
      renewing = true;
      renewSlot(scopedFork(orm, { platform: 'public-share' }), slotId, leaseSeconds)
        .then(
          (held) => {
            if (held || stopped) return;
            stopped = true;
            clearInterval(timer);
            log.warn({ slotId }, 'share download stopped: its slot lease lapsed');
            onLost();
          },
          (error: unknown) => log.warn({ slotId, err: error }, 'share download slot lease not renewed'),
        )
        .finally(() => (renewing = false));
    },
    (leaseSeconds * 1000) / 3,
  );
  // a download under way must not keep the process from stopping
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
