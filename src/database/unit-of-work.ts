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

/** The transaction a write decides in: the repositories read the rows it holds through it. */
export type WriteTransaction = SqlRunner;

/**
 * Reads what a write changes, in the write's transaction, and decides it. Its reads hold the rows
 * they read until the write commits (SqlDialect.forUpdate), so that changes of one row queue on it;
 * it throws the client's own errors (404, 409, 412), and the write is then rolled back.
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

  constructor(private readonly sql: Sql) {}

  async write<T extends object>(decide: Decide<T>, participant?: WriteParticipant<T>): Promise<T> {
    if (!participant) return this.decideAndCommit(decide);
    const replay = await participant.begin();
    if (replay) return replay.answer;
    try {
      return await this.decideAndCommit(decide, participant);
    } catch (error) {
      await participant.abandon().catch(() => undefined);
      throw error;
    }
  }

  /** Called after every commit that recorded events: the deliverer looks at once rather than at its next poll. */
  onEventsCommitted(listener: () => void): void {
    this.committedEvents.push(listener);
  }

  private async decideAndCommit<T extends object>(decide: Decide<T>, participant?: WriteParticipant<T>): Promise<T> {
    for (let decision = 1; ; decision++) {
      const transaction = await this.sql.begin();
      let decided: Decision<T>;
      try {
        decided = await decide(transaction);
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

/** The id the insert named `id` generated. */
function insertedId(statements: readonly Statement[], written: readonly Written[], id: InsertedId): number {
  const index = statements.findIndex(({ inserts }) => inserts?.name === id.name);
  if (index < 0) throw new Error(`no statement inserts ${id.name}`);
  return written[index].insertId;
}
