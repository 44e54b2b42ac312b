/** Deliveries in flight from one instance at most; each holds one socket and at most 64 KiB. */
export const MAX_IN_FLIGHT = 32;
/** Per endpoint, so that one that always times out holds at most this many of the slots. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 8;

/** A due delivery a claim may take: its row and its endpoint's. */
export interface DueDelivery {
  readonly id: number;
  readonly endpointRowId: number;
}

/**
 * One instance's slots for attempts in flight: `max` in all, `perEndpoint` to each endpoint. A slot is
 * taken when an attempt starts and freed when its request is over (recording it goes on beside).
 */
export class DeliverySlots {
  private readonly taken = new Map<number, number>();
  private total = 0;

  constructor(
    private readonly max = MAX_IN_FLIGHT,
    private readonly perEndpoint = MAX_IN_FLIGHT_PER_ENDPOINT,
  ) {}

  /** Slots free in all. */
  get free(): number {
    return this.max - this.total;
  }

  /** The free slots of each of the endpoints that has any. */
  freeByEndpoint(endpointRowIds: Iterable<number>): Map<number, number> {
    const free = new Map<number, number>();
    for (const rowId of endpointRowIds) {
      const left = this.perEndpoint - (this.taken.get(rowId) ?? 0);
      if (left > 0) free.set(rowId, left);
    }
    return free;
  }

  take(endpointRowId: number): void {
    this.taken.set(endpointRowId, (this.taken.get(endpointRowId) ?? 0) + 1);
    this.total++;
  }

  release(endpointRowId: number): void {
    this.taken.set(endpointRowId, (this.taken.get(endpointRowId) ?? 1) - 1);
    this.total--;
  }
}

/**
 * Of `candidates` (due, the soonest first), those one claim takes: at most `limit`, and at most
 * `free.get(endpoint)` of each endpoint's (none of an endpoint not in `free`), so that one
 * endpoint's backlog at the head of the queue does not keep another's out of the batch.
 */
export function pickClaims<T extends DueDelivery>(candidates: readonly T[], free: ReadonlyMap<number, number>, limit: number): T[] {
  const left = new Map(free);
  const picked: T[] = [];
  for (const candidate of candidates) {
    const room = left.get(candidate.endpointRowId) ?? 0;
    if (room === 0 || picked.length === limit) continue;
    left.set(candidate.endpointRowId, room - 1);
    picked.push(candidate);
  }
  return picked;
}
