import type { FinishedAttempt } from './claimed-delivery.js';

/** Attempts that end this close together are recorded in one transaction. */
export const RECORD_DELAY_MS = 10;
/** Attempts per recording transaction at most; no more are claimed while this many wait to be recorded. */
export const RECORD_BATCH = 64;

/** Where attempts are written, a batch in one transaction (DeliveryQueueRepository.finish). */
export interface AttemptStore {
  /** Answers, for each attempt, whether its claim was still its own. */
  finish(finished: readonly FinishedAttempt[]): Promise<boolean[]>;
}

interface Waiting {
  readonly finished: FinishedAttempt;
  readonly resolve: (ours: boolean) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Records attempts in batches: those that end within `delayMs` of the first go in one transaction,
 * at most `batchSize` of them, and those that end while a batch is written go in the next.
 * `recorded` is called when every attempt queued is written (claims may go on, see `full`).
 */
export class AttemptRecorder {
  private readonly waiting: Waiting[] = [];
  private recording?: Promise<void>;

  constructor(
    private readonly store: AttemptStore,
    private readonly recorded: () => void,
    private readonly delayMs = RECORD_DELAY_MS,
    private readonly batchSize = RECORD_BATCH,
  ) {}

  /** Whether a whole batch waits to be recorded: the deliverer claims no more until it is. */
  get full(): boolean {
    return this.waiting.length >= this.batchSize;
  }

  /** Queues an attempt to be recorded; answers whether its claim was still this instance's. */
  record(finished: FinishedAttempt): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ finished, resolve, reject });
      this.recording ??= this.recordWaiting();
    });
  }

  /** Resolves when every attempt queued so far is written (or failed to be). */
  async drained(): Promise<void> {
    await this.recording;
  }

  private async recordWaiting(): Promise<void> {
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.batchSize);
        try {
          const ours = await this.store.finish(batch.map(({ finished }) => finished));
          batch.forEach(({ resolve }, at) => resolve(ours[at]));
        } catch (error) {
          for (const { reject } of batch) reject(error);
        }
      }
    } finally {
      this.recording = undefined;
      this.recorded();
    }
  }
}
