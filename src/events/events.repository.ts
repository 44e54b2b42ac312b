import { Injectable } from '@nestjs/common';
import { id, text } from '../database/columns.js';
import { listOf } from '../database/sql-literal.js';
import { type Row, Sql } from '../database/sql.js';
import { type InsertedId, JsonWithInsertedId, type Statement } from '../database/statement.js';
import type { Environment } from '../environments/environment.js';
import type { WebhookEvent } from './event-types.js';

/** An event as listed: the event itself, and its row for the cursor. */
export interface StoredEvent {
  readonly rowId: number;
  readonly event: WebhookEvent;
}

const INSERT =
  'INSERT INTO events (environment, public_id, type, created_at, payload, dispatched, only_endpoint_id) VALUES (?, ?, ?, ?, ?, 0, ?)';
const EVENT_BY_PUBLIC_ID = 'SELECT id AS rowId, payload FROM events WHERE public_id = ?';
const EVENTS_PAGE = 'SELECT id AS rowId, payload FROM events WHERE only_endpoint_id IS NULL AND id > ? ORDER BY id LIMIT ?';
const EVENTS_OF_TYPES_PAGE =
  'SELECT id AS rowId, payload FROM events WHERE type IN (?) AND only_endpoint_id IS NULL AND id > ? ORDER BY id LIMIT ?';
const EVENTS_OF_TYPE_PAGE =
  'SELECT id AS rowId, payload FROM events WHERE type = ? AND only_endpoint_id IS NULL AND id > ? ORDER BY id LIMIT ?';

const readEvent = (row: Row): StoredEvent => ({ rowId: id(row.rowId), event: JSON.parse(text(row.payload)) as WebhookEvent });

/**
 * The events table: written by the outbox (outbox.ts) in the transaction of the write it tells of,
 * read here by id and by page, and by the deliverer by state.
 */
@Injectable()
export class EventsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The insert of `event` in the environment it happened in, to run in its write's transaction
   * (UnitOfWork); `objectId` when its object is the row an insert of that write makes, whose id the
   * database writes into it.
   */
  insert(environment: Environment, event: WebhookEvent, onlyEndpointId: number | null, objectId?: InsertedId): Statement {
    const payload = objectId ? new JsonWithInsertedId(event, ['data', 'object', 'id'], objectId) : JSON.stringify(event);
    return { sql: INSERT, parameters: [environment.id, event.id, event.type, new Date(event.createdAt), payload, onlyEndpointId] };
  }

  /** Runs an event's insert on its own. */
  async add(insert: Statement): Promise<void> {
    await this.sql.run(insert.sql, insert.parameters);
  }

  async findEvent(publicId: string): Promise<StoredEvent | undefined> {
    const [event] = await this.sql.rows(EVENT_BY_PUBLIC_ID, [publicId], readEvent);
    return event;
  }

  /** Events of `type` (or of any of `types`; any when undefined) after `afterRowId`, test events left out. */
  async eventsPage(type: string | readonly string[] | undefined, afterRowId: number, limit: number): Promise<StoredEvent[]> {
    if (type === undefined) return this.sql.rows(EVENTS_PAGE, [afterRowId, limit], readEvent);
    if (typeof type === 'string') return this.sql.rows(EVENTS_OF_TYPE_PAGE, [type, afterRowId, limit], readEvent);
    if (type.length === 0) return [];
    return this.sql.rows(EVENTS_OF_TYPES_PAGE, [listOf(type), afterRowId, limit], readEvent);
  }
}
