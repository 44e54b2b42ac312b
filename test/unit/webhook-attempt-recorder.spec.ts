import { describe, expect, it } from '@jest/globals';
import { Environment } from '../../src/environments/environment.js';
import { AttemptRecorder, type AttemptStore } from '../../src/webhook-delivery/attempt-recorder.js';
import type { FinishedAttempt } from '../../src/webhook-delivery/claimed-delivery.js';

const attempt = (id: number): FinishedAttempt => ({
  delivery: {
    environment: Environment.LIVE,
    id,
    claimToken: 'token',
    attempts: 0,
    eventId: `evt_${id}`,
    eventType: 'pet.created',
    eventCreatedAt: new Date(0),
    payload: '{}',
    endpointRowId: 1,
  },
  attempt: { attemptedAt: new Date(0), status: 204, durationMs: 3, error: null, responseBody: null },
  result: { kind: 'delivered' },
});

/** A store that writes what it is given when the test says so, answering each claim as still held unless `lost`. */
class FakeStore implements AttemptStore {
  readonly batches: number[][] = [];
  readonly lost = new Set<number>();
  failWith?: Error;
  private pending: (() => void)[] = [];
  held = false;

  async finish(finished: readonly FinishedAttempt[]): Promise<boolean[]> {
    this.batches.push(finished.map(({ delivery }) => delivery.id));
    if (this.held) await new Promise<void>((release) => this.pending.push(release));
    if (this.failWith) throw this.failWith;
    return finished.map(({ delivery }) => !this.lost.has(delivery.id));
  }

  release(): void {
    this.held = false;
    for (const release of this.pending.splice(0)) release();
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the attempt recorder', () => {
  it('writes the attempts that end close together in one batch, and answers each whether its claim was still held', async () => {
    const store = new FakeStore();
    store.lost.add(2);
    let recorded = 0;
    const recorder = new AttemptRecorder(store, () => recorded++, 20, 64);
    const answers = [recorder.record(attempt(1)), recorder.record(attempt(2))];
    await tick(5);
    answers.push(recorder.record(attempt(3)));
    expect(await Promise.all(answers)).toEqual([true, false, true]);
    expect(store.batches).toEqual([[1, 2, 3]]);
    expect(recorded).toBe(1);
  });

  it('puts the attempts that end while a batch is written in the next, and no more than a batch in one', async () => {
    const store = new FakeStore();
    store.held = true;
    const recorder = new AttemptRecorder(store, () => undefined, 1, 2);
    const first = [1, 2, 3].map((id) => recorder.record(attempt(id)));
    await tick(10);
    expect(store.batches).toEqual([[1, 2]]);
    const later = recorder.record(attempt(4));
    store.release();
    expect(await Promise.all([...first, later])).toEqual([true, true, true, true]);
    expect(store.batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('is full while a whole batch waits, so that the deliverer claims no more', async () => {
    const store = new FakeStore();
    const recorder = new AttemptRecorder(store, () => undefined, 5, 2);
    const answers = [recorder.record(attempt(1))];
    expect(recorder.full).toBe(false);
    answers.push(recorder.record(attempt(2)));
    expect(recorder.full).toBe(true);
    await Promise.all(answers);
    expect(recorder.full).toBe(false);
  });

  it('fails every attempt of a batch the store could not write, and goes on with the next', async () => {
    const store = new FakeStore();
    store.failWith = new Error('the database is away');
    const recorder = new AttemptRecorder(store, () => undefined, 1, 64);
    const failed = [recorder.record(attempt(1)), recorder.record(attempt(2))];
    for (const answer of failed) await expect(answer).rejects.toThrow('the database is away');
    store.failWith = undefined;
    expect(await recorder.record(attempt(3))).toBe(true);
    await recorder.drained();
    expect(store.batches).toEqual([[1, 2], [3]]);
  });
});
