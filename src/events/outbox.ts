import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { API_VERSION } from '../config/api-version.js';
import { Clock } from '../config/clock.js';
import type { InsertedId, Statement } from '../database/statement.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import type { Environment } from '../environments/environment.js';
import type { EventCause, EventType, WebhookEvent } from './event-types.js';
import { EventsRepository } from './events.repository.js';

/**
 * Where a write records the event it causes: in its own transaction (the statement is one of the
 * write's events, UnitOfWork), so that the event exists exactly when the write committed, and a
 * rolled-back write leaves none. The deliverer reads the outbox by state, never by id order. When a
 * write with events commits, the unit of work says so and the outbox wakes the deliverer, so the
 * first attempt does not wait for the next poll.
 */
@Injectable()
export class Outbox {
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly events: EventsRepository,
    private readonly clock: Clock,
    unitOfWork: UnitOfWork,
  ) {
    unitOfWork.onEventsCommitted(() => this.committed());
  }

  /**
   * That `object` of the environment was deleted, as it was, by the request `cause`: the statement
   * that records it, to run in the deletion's transaction. Every record is an event of the
   * environment it names, which only that environment's endpoints and listings see.
   */
  recordDeleted(environment: Environment, type: EventType, object: object, cause: EventCause | null): Statement {
    return this.events.insert(environment, this.event(environment, type, object, cause), null);
  }

  /**
   * That `before` became `after`: the statement that records it, to run in the change's transaction,
   * with `previousAttributes` the fields that changed, as they were (Stripe's shape); `cause`, the request that did it.
   */
  recordChanged<T extends object>(environment: Environment, type: EventType, before: T, after: T, cause: EventCause | null): Statement {
    return this.events.insert(environment, this.event(environment, type, after, cause, changedAttributes(before, after)), null);
  }

  /**
   * That `object` was made by the insert of the write that names its id `id`: the statement that
   * records its event, whose object's `id` the database writes (JsonWithInsertedId).
   */
  recordCreated(environment: Environment, type: EventType, object: { id: number }, id: InsertedId, cause: EventCause | null): Statement {
    return this.events.insert(environment, this.event(environment, type, object, cause), null, id);
  }

  /** Records an event of the environment that no write goes with (a test event), at once; the deliverer looks at once. */
  async recordAlone(
    environment: Environment,
    type: string,
    object: object,
    onlyEndpointId: number | null,
    cause: EventCause | null,
  ): Promise<WebhookEvent> {
    const event = this.event(environment, type, object, cause);
    await this.events.add(this.events.insert(environment, event, onlyEndpointId));
    this.committed();
    return event;
  }

  /** Says that events were committed: the deliverer looks at once. */
  committed(): void {
    for (const listener of this.listeners) listener();
  }

  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }

  private event(
    environment: Environment,
    type: string,
    object: object,
    cause: EventCause | null,
    previousAttributes?: object,
  ): WebhookEvent {
    return {
      id: `evt_${randomBytes(15).toString('base64url')}`,
      type,
      createdAt: new Date(this.clock.now()).toISOString(),
      apiVersion: API_VERSION,
      request: cause,
      data: previousAttributes ? { object, previousAttributes } : { object },
      livemode: environment.livemode,
    };
  }
}

/**
 * The fields whose values `after` changed, as `before` had them: null for one it did not have.
 * Compared by value, objects and arrays included (a pet's metadata), never by identity.
 */
export function changedAttributes<T extends object>(before: T, after: T): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof T & string>) {
    if (!isDeepStrictEqual(before[key], after[key])) changed[key] = key in before ? before[key] : null;
  }
  return changed;
}
