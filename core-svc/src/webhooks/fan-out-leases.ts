/**
 * Which of the deliveries a fan-out makes it leases at once, to be sent without a claim
 * (docs/adr/0080-webhook-delivery-fan-out-queue.md). By the claim's own rule (delivery-queue.ts
 * `claimDue`, docs/adr/0082-webhook-figures-and-fairness-between.md): the least busy tenants' first,
 * each tenant's within its share before any beyond it, beyond it only while the picks stay within
 * `overShare`, at most `limit`; and only the first delivery of each record (a later one waits for
 * it). The dispatcher offers slots only when its last claim left nothing due behind, so what is
 * leased here never overtakes an older delivery waiting in the queue; the insert itself declines
 * the lease of a delivery whose record has an earlier one pending.
 */

/** The attempt slots a fan-out may fill, as a claim would. */
export interface Slots {
  limit: number;
  share: number;
  overShare: number;
  /** Attempts in flight by tenant. */
  busy: ReadonlyMap<number, number>;
}

/** A delivery made, in the order of the outbox. */
export interface Made {
  tenant: number;
  record: string;
}

/** The indexes into `made` of the deliveries to lease. */
export function pickLeases(made: readonly Made[], slots: Slots): Set<number> {
  const picked = new Set<number>();
  if (slots.limit <= 0) return picked;
  const records = new Set<string>();
  const lines = new Map<number, number>();
  const ranked: { index: number; turn: number }[] = [];
  made.forEach((delivery, index) => {
    if (records.has(delivery.record)) return;
    records.add(delivery.record);
    const place = (lines.get(delivery.tenant) ?? 0) + 1;
    lines.set(delivery.tenant, place);
    ranked.push({ index, turn: place + (slots.busy.get(delivery.tenant) ?? 0) });
  });
  // by turn, then the outbox's order (a stable sort keeps it)
  ranked.sort((a, b) => a.turn - b.turn);
  for (const [rank, { index, turn }] of ranked.entries()) {
    if (picked.size >= slots.limit) break;
    if (turn <= slots.share || rank + 1 <= slots.overShare) picked.add(index);
  }
  return picked;
}
