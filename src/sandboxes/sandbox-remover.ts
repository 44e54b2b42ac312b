import { setTimeout as pause } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../config/clock.js';
import { Environment } from '../environments/environment.js';
import { SANDBOX_TABLES, SandboxRowsRepository } from './sandbox-rows.repository.js';
import { type StoredSandbox, SandboxesRepository } from './sandboxes.repository.js';

/** How often the remover looks for deleted and expired sandboxes when nothing woke it. */
export const REMOVER_POLL_MS = 1_000;
/**
 * Rows one statement deletes: small enough that the statement is over in a few milliseconds, so
 * that a live write that waits for it (SQLite's one writer; a lock of InnoDB's on the index's edge
 * next to live's rows) waits no longer than that.
 */
export const REMOVAL_BATCH = 500;
/** Between two batches the remover steps aside this long, so live writes queued meanwhile go first. */
const BETWEEN_BATCHES_MS = 5;
/** Sandboxes one pass takes on; the rest wait for the next. */
const SANDBOXES_PER_PASS = 10;
/**
 * How long after a sandbox was deleted (or expired) its own row stays, though its rows are gone:
 * a request its key had started before may still write one (an answer's deadline is 5 s), which the
 * sweep at the end takes away too.
 */
export const SETTLE_MS = 10_000;

/**
 * Removes what deleted and expired sandboxes left, off every request's path: each table's rows of
 * the sandbox in small batches (SandboxRowsRepository), yielding between them, then the sandbox's
 * own row. Each instance runs one, from the start to the shutdown; two at work on one sandbox only
 * find fewer rows. A failure is logged once and tried again at the next poll: a sandbox stays
 * deleted (its keys revoked, the API shows it no more) until its rows are gone.
 */
@Injectable()
export class SandboxRemover implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SandboxRemover');
  private timer?: NodeJS.Timeout;
  private passing?: Promise<void>;
  private again = false;
  private stopped = true;
  private failing = false;

  constructor(
    private readonly sandboxes: SandboxesRepository,
    private readonly rows: SandboxRowsRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Before the database's pool closes: no batch starts after this, and the one under way ends. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.passing;
  }

  /** Looks now (a sandbox was just deleted) rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.passing) this.again = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    // Unref'd: the server keeps the process alive, not this.
    if (!this.stopped) this.timer = setTimeout(() => void this.run(), delayMs).unref();
  }

  private async run(): Promise<void> {
    this.passing = this.pass();
    await this.passing;
    this.passing = undefined;
    const again = this.again;
    this.again = false;
    this.schedule(again ? 0 : REMOVER_POLL_MS);
  }

  private async pass(): Promise<void> {
    try {
      for (const sandbox of await this.sandboxes.toRemove(new Date(this.clock.now()), SANDBOXES_PER_PASS)) {
        if (this.stopped) return;
        await this.remove(sandbox);
      }
      if (this.failing) this.logger.log('removes deleted and expired sandboxes again');
      this.failing = false;
    } catch (error) {
      if (!this.failing && !this.stopped)
        this.logger.warn(`cannot remove deleted or expired sandboxes (${error instanceof Error ? error.message : error}); tries again`);
      this.failing = true;
    }
  }

  /** Deletes the sandbox's rows, table by table; once none is left and it has settled, its own row. */
  private async remove(sandbox: StoredSandbox): Promise<void> {
    const environment = Environment.of(sandbox.rowId);
    let removed = 0;
    for (const table of SANDBOX_TABLES) {
      for (;;) {
        if (this.stopped) return;
        const deleted = await this.rows.deleteSomeOf(table, environment, REMOVAL_BATCH);
        removed += deleted;
        await pause(BETWEEN_BATCHES_MS);
        if (deleted < REMOVAL_BATCH) break;
      }
    }
    const endedAt = Math.min(sandbox.deletedAt?.getTime() ?? Infinity, sandbox.expiresAt.getTime());
    if (removed > 0) {
      this.logger.log(`removed ${removed} rows of sandbox ${sandbox.id} (${sandbox.deletedAt ? 'deleted' : 'expired'})`);
    } else if (this.clock.now() - endedAt >= SETTLE_MS) {
      await this.sandboxes.remove(sandbox.rowId, new Date(this.clock.now()));
    }
  }
}
