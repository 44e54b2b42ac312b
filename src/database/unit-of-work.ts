import { Injectable } from '@nestjs/common';
import { Sql, type SqlRunner, type Written } from './sql.js';
import type { InsertedId, Statement } from './statement.js';
import { isWriteConflict, pauseAfterWriteConflict, WriteKeptConflictingException } from './write-conflicts.js';

/**
 * What a write decided, on what it read: the answer, the statements that make it (none when it
 * changes nothing), and the events that tell of it. An insert names the id it generates
 * (`Statement.inserts`); `answerId` says which of those ids is the answer's `id`.
 */
export interface Decision<T> {
  readonly answer: T;
  readonly statements: readonly Statement[];
  /** The inserts of the events it records (Outbox), committed with it: an event exists exactly when its write does. */
  readonly events?: readonly Statement[];
  readonly answerId?: InsertedId;
}

/**
 * What a write decides on: its transaction, whose reads hold the rows they read until it commits
 * (`holds`: a repository reads with SqlDialect.forUpdate), or the first look of a change
 * (UnitOfWork.change), whose reads hold nothing.
 */
export interface WriteTransaction extends SqlRunner {
  readonly holds: boolean;
}

/**
 * Reads what a write changes, in the write's transaction, and decides it. Its reads hold the rows
 * they read until the write commits (SqlDialect.forUpdate), so that changes of one row queue on it;
 * it throws the client's own errors (404, 409, 412), and the write is then rolled back. It may be
 * called more than once for one write (a first look, a lost write conflict): it decides afresh each time.
 */
export type Decide<T> = (transaction: WriteTransaction) => Promise<Decision<T>>;

/** What joins a write of one request from outside it: an Idempotency-Key, whose answer is stored with the write and replayed. */
export interface WriteParticipant<T> {
  /** Before anything is decided: the answer to give instead of writing (a replay), if any. */
  begin(): Promise<{ readonly answer: T } | undefined>;
  /** The statements that commit with the decided write, and the check of what they did, which refuses the commit by throwing. */
  join(decision: Decision<T>): { readonly statements: readonly Statement[]; check(written: readonly Written[]): void };
  /** After the write failed, nothing of it committed. */
  abandon(): Promise<void>;
}

/** How many times a write is decided anew when its transaction lost a write conflict. */
const DECISIONS = 5;

/**
 * Every write of the service, from the read it decides on to its commit: the one place that owns
 * the transaction, the retries after a conflict, the ids inserts generate (by name), the events a
 * write records, and who joins it (an Idempotency-Key). A write without a participant passes
 * through nothing else.
 *
 * A write decides on rows it holds: on MySQL its reads lock them (`FOR UPDATE`) until it commits,
 * so that concurrent changes of one row queue and each applies to what the one before it left (no
 * 503 for contention); on SQLite its transaction holds the write lock. A transaction that still
 * loses a write conflict (an InnoDB deadlock, a Galera certification failure) was rolled back whole:
 * the write is decided again on what is there now, up to five times, which may answer the client's
 * own 409; then 503.
 */
@Injectable()
export class UnitOfWork {
  private readonly committedEvents: (() => void)[] = [];
  /** The first look of a change: each read a statement of its own, holding nothing. */
  private readonly look: WriteTransaction;

  constructor(private readonly sql: Sql) {
    this.look = {
      holds: false,
      rows: (text, parameters, read) => sql.rows(text, parameters, read),
      run: () => Promise.reject(new Error('a first look writes nothing')),
    };
  }

  async write<T extends object>(decide: Decide<T>, participant?: WriteParticipant<T>): Promise<T> {
    return this.joined((joining) => this.decideAndCommit(decide, joining), participant);
  }

  /**
   * A change of what is there, which may change nothing (a PATCH to the values a row has) or be
   * refused (404, 409, 412): decided first on a look that holds nothing, and answered from it when
   * it writes nothing, without a transaction or a lock (on MySQL, one read: a no-op PATCH under a
   * row lock cost a third of 1.4.0's throughput, docs/PERFORMANCE.md). A decision that writes is
   * made again in the write's transaction, on the rows it holds (as `write`), so that concurrent
   * changes still queue and a precondition is checked against the row written.
   */
  async change<T extends object>(decide: Decide<T>, participant?: WriteParticipant<T>): Promise<T> {
    return this.joined(async (joining) => {
      const looked = await decide(this.look);
      if (writes(looked)) return this.decideAndCommit(decide, joining);
      // An Idempotency-Key's answer is still stored, in a transaction that holds none of the rows read.
      return joining ? this.decideAndCommit(decide, joining, looked) : looked.answer;
    }, participant);
  }

  /** Called after every commit that recorded events: the deliverer looks at once rather than at its next poll. */
  onEventsCommitted(listener: () => void): void {
    this.committedEvents.push(listener);
  }

  /** `work` with the participant, if any: its replay instead, or its statements joined, and it abandoned when the write fails. */
  private async joined<T extends object>(
    work: (participant?: WriteParticipant<T>) => Promise<T>,
    participant: WriteParticipant<T> | undefined,
  ): Promise<T> {
    if (!participant) return work();
    const replay = await participant.begin();
    if (replay) return replay.answer;
    try {
      return await work(participant);
    } catch (error) {
      await participant.abandon().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Decides in a transaction and commits, deciding again after a lost write conflict. `looked`: a
   * decision of a first look that writes none of the rows it read, committed as it is the first time.
   */
  private async decideAndCommit<T extends object>(decide: Decide<T>, participant?: WriteParticipant<T>, looked?: Decision<T>): Promise<T> {
    for (let decision = 1; ; decision++) {
      const transaction = await this.sql.begin();
      let decided: Decision<T>;
      try {
        decided = decision === 1 && looked ? looked : await decide(transaction);
      } catch (error) {
        await transaction.rollback();
        throw error;
      }
      const { answer, statements, events = [], answerId } = decided;
      const joined = participant?.join(decided);
      const all = [...statements, ...events, ...(joined?.statements ?? [])];
      const own = statements.length + events.length;
      try {
        const written = await transaction.commit(all, joined && ((done) => joined.check(done.slice(own))));
        if (events.length > 0) for (const listener of this.committedEvents) listener();
        return answerId ? { ...answer, id: insertedId(all, written, answerId) } : answer;
      } catch (error) {
        if (!isWriteConflict(error)) throw error;
        if (decision === DECISIONS) throw new WriteKeptConflictingException();
        await pauseAfterWriteConflict(decision);
      }
    }
  }
}

/** Whether a decision writes anything: a change, or an event. */
function writes({ statements, events = [] }: Decision<unknown>): boolean {
  return statements.length > 0 || events.length > 0;
}

/** The id the insert named `id` generated. */
function insertedId(statements: readonly Statement[], written: readonly Written[], id: InsertedId): number {
  const index = statements.findIndex(({ inserts }) => inserts?.name === id.name);
  if (index < 0) throw new Error(`no statement inserts ${id.name}`);
  return written[index].insertId;
}
