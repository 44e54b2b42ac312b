import { performance } from 'node:perf_hooks';

/** How often the outbox is looked at when nothing woke the deliverer. */
export const POLL_MS = 500;
/**
 * Requests come first: while the event loop was busier than this over the last sample, passes
 * yield (one at most every YIELD_MS) and the outbox keeps the rest until the load eases.
 */
const BUSY_LOOP = 0.9;
const LOOP_SAMPLE_MS = 100;
const YIELD_MS = 100;
/** A commit wakes the deliverer this soon, not at once: under load, one pass fans out the events of many creates. */
export const WAKE_DELAY_MS = 20;

/**
 * When the deliverer makes its passes: one at a time, every POLL_MS when nothing asks sooner, soon
 * after a wake (a commit, an API call), at once while a pass leaves work at hand, and no more often
 * than every YIELD_MS while requests keep the event loop busy. It also keeps when the next pass fans
 * out new events: when a wake or the poll asked for it, not at every pass (a pass per freed slot
 * would be a transaction per delivery, most of them finding nothing new).
 */
export class DeliveryScheduler {
  private timer?: NodeJS.Timeout;
  private loopSampler?: NodeJS.Timeout;
  private yielding = false;
  private lastPassAt = 0;
  private nextPassAt = 0;
  private passing?: Promise<void>;
  private running = false;
  /** When a wake came during a pass: how soon it asked for the next one. */
  private againIn?: number;
  private dispatchDueAt = 0;
  private stopped = true;

  /** `pass` makes one pass and answers whether it left work at hand (a full batch). */
  constructor(private readonly pass: () => Promise<boolean>) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    let sampled = performance.eventLoopUtilization();
    this.loopSampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.yielding = performance.eventLoopUtilization(now, sampled).utilization > BUSY_LOOP;
      sampled = now;
    }, LOOP_SAMPLE_MS);
    this.loopSampler.unref();
    this.schedule(0);
  }

  /** Makes no more passes; resolves when the one under way, if any, is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.loopSampler);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passing;
  }

  /** Fans out new events within `delayMs` (after the pass under way, if one is). */
  wake(delayMs = WAKE_DELAY_MS): void {
    this.dispatchDueAt = Math.min(this.dispatchDueAt, Date.now() + delayMs);
    this.soon(delayMs);
  }

  /** Runs a pass within `delayMs`, after the one under way if one is. */
  soon(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) this.againIn = Math.min(this.againIn ?? delayMs, delayMs);
    else this.schedule(delayMs);
  }

  /** Whether the pass under way is to fan out new events. */
  get dispatchDue(): boolean {
    return Date.now() >= this.dispatchDueAt;
  }

  /** The pass fans out now: the next does at the poll, unless woken sooner or `full` (it took a whole batch). */
  dispatching(full = false): void {
    this.dispatchDueAt = full ? 0 : Date.now() + POLL_MS;
  }

  /** Runs a pass in `delayMs`, unless one is due sooner; no sooner than YIELD_MS after the last while requests keep the loop busy. */
  private schedule(delayMs: number): void {
    const now = Date.now();
    const at = Math.max(now + delayMs, this.yielding ? this.lastPassAt + YIELD_MS : 0);
    if (this.timer && this.nextPassAt <= at) return;
    clearTimeout(this.timer);
    this.nextPassAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.passing = this.run();
    }, at - now);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    this.lastPassAt = Date.now();
    let busy = false;
    try {
      busy = await this.pass();
    } finally {
      this.running = false;
      if (!this.stopped) this.schedule(busy ? 0 : Math.min(this.againIn ?? POLL_MS, Math.max(0, this.dispatchDueAt - Date.now())));
      this.againIn = undefined;
    }
  }
}
