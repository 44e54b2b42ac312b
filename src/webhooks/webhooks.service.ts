import { isIP } from 'node:net';
import { HttpStatus, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import type { ApiKeyPrincipal } from '../auth/api-key.principal.js';
import { InsufficientScopeException } from '../auth/api-key.exceptions.js';
import type { Scope } from '../auth/scopes.js';
import { ValidationFailedException } from '../errors/api-exception.js';
import type { Preconditions } from '../http/entity-tag.js';
import { requirePreconditions } from '../http/preconditions.js';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../events/event-types.js';
import { EventsRepository } from '../events/events.repository.js';
import { Outbox } from '../events/outbox.js';
import { UnitOfWork, type WriteTransaction } from '../database/unit-of-work.js';
import { Idempotency } from '../idempotency/idempotency.js';
import type { WriteRequest } from '../idempotency/write-request.js';
import { readPage, type Page } from '../pagination/page.js';
import { DeliveryLogRepository } from '../webhook-delivery/delivery-log.repository.js';
import { Deliverer } from '../webhook-delivery/deliverer.js';
import {
  type CreatedWebhookEndpointDto,
  type RotatedSecretDto,
  WebhookEndpointDto,
  type NewWebhookEndpointDto,
} from './dto/webhook-endpoint.dto.js';
import type { EventDto, EventWithDeliveriesDto, ListEventsQuery } from './dto/event.dto.js';
import type { PageQuery } from '../pagination/page-query.dto.js';
import { readScopeOfEvent, readScopesOfSubscription, subscribes } from '../webhook-delivery/subscriptions.js';
import { AddressPolicy } from '../webhook-delivery/address-policy.js';
import { newSigningSecret } from '../webhook-delivery/signature.js';
import { type StoredEndpoint, WebhookEndpointsRepository } from '../webhook-delivery/webhook-endpoints.repository.js';
import { EventNotFoundException, WebhookEndpointNotFoundException } from './webhooks.exceptions.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The webhook endpoints and events of the API. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly events: EventsRepository,
    private readonly deliveries: DeliveryLogRepository,
    private readonly writes: UnitOfWork,
    private readonly idempotency: Idempotency,
    private readonly outbox: Outbox,
    private readonly deliverer: Deliverer,
    private readonly policy: AddressPolicy,
  ) {}

  /**
   * A new endpoint, made by `maker`'s key: it may subscribe only to the events of what that key may
   * read (403 naming the scope it lacks), and receives only those the key may read when each is sent.
   */
  createEndpoint(
    { url, events, description }: NewWebhookEndpointDto,
    maker: ApiKeyPrincipal,
    write: WriteRequest,
  ): Promise<CreatedWebhookEndpointDto> {
    const needed = readScopesOfSubscription(events);
    if (needed.some((scope) => !maker.scopes.has(scope)))
      throw new InsufficientScopeException(
        ['webhooks:write', ...needed],
        maker.scopes,
        `an endpoint receiving ${events.includes('*') ? 'every event' : events.join(', ')} needs: an endpoint receives only the events of what its maker's key may read`,
      );
    const checked = this.checkUrl(url);
    const secret = newSigningSecret();
    const createdAt = new Date(this.clock.now());
    const { endpoint, statement } = this.endpoints.insert({
      url: checked,
      events,
      description: description ?? null,
      secret,
      createdAt,
      createdBy: maker.keyId,
    });
    const answer = { ...WebhookEndpointDto.from(endpoint), secret };
    return this.writes.write(async () => ({ answer, statements: [statement] }), this.idempotency.of(write.idempotency, HttpStatus.CREATED));
  }

  async listEndpoints(query: PageQuery): Promise<Page<WebhookEndpointDto>> {
    // Paged by the row id; the public id is random.
    const page = await readPage('webhook-endpoints', query, {}, async (afterId, limit) =>
      (await this.endpoints.page(afterId, limit)).map((endpoint) => ({ id: endpoint.rowId, endpoint })),
    );
    return page.map(({ endpoint }) => WebhookEndpointDto.from(endpoint));
  }

  async getEndpoint(id: string): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.find(id));
  }

  async deleteEndpoint(id: string, preconditions: Preconditions): Promise<void> {
    await this.writes.write(async (transaction) => {
      const endpoint = await this.held(transaction, id, preconditions);
      return { answer: endpoint, statements: [this.endpoints.remove(id)] };
    });
    this.deliverer.endpointsChanged();
  }

  async setEnabled(id: string, enabled: boolean, preconditions: Preconditions): Promise<WebhookEndpointDto> {
    const reason = enabled ? null : 'Disabled through the API.';
    const answer = await this.writes.write(async (transaction) => {
      const endpoint = await this.held(transaction, id, preconditions);
      return {
        answer: WebhookEndpointDto.from({ ...endpoint, enabled, disabledReason: reason }),
        statements: [this.endpoints.setEnabledStatement(id, enabled, reason)],
      };
    });
    this.deliverer.endpointsChanged();
    if (enabled) this.deliverer.wake();
    return answer;
  }

  async rotateSecret(id: string, preconditions: Preconditions): Promise<RotatedSecretDto> {
    const secret = newSigningSecret();
    const overlapUntil = new Date(this.clock.now() + SECRET_OVERLAP_MS);
    await this.writes.write(async (transaction) => {
      const endpoint = await this.held(transaction, id, preconditions);
      return { answer: endpoint, statements: [this.endpoints.rotateStatement(id, secret, overlapUntil)] };
    });
    this.deliverer.endpointsChanged();
    return { secret, previousSecretExpiresAt: overlapUntil.toISOString() };
  }

  /** Sends a `webhook.test` event to this endpoint alone; answers the event. */
  async sendTest(id: string, preconditions: Preconditions, write: WriteRequest): Promise<EventDto> {
    const endpoint = await this.find(id, preconditions);
    // The request's environment is the endpoint's once endpoints are found only in it (the webhooks
    // helper of issue 58 confines find): the event is of the environment whose endpoint it goes to.
    return (await this.outbox.recordAlone(
      write.environment,
      TEST_EVENT_TYPE,
      { endpointId: endpoint.id },
      endpoint.rowId,
      write.cause,
    )) as EventDto;
  }

  async recover(id: string, since: Date, preconditions: Preconditions): Promise<number> {
    const endpoint = await this.find(id, preconditions);
    const queued = await this.deliveries.recover(endpoint.rowId, since, new Date(this.clock.now()));
    this.deliverer.wake();
    return queued;
  }

  /**
   * The events of the types a key holding `scopes` may read (`pet.*` with pets:read, `order.*` with
   * store:read): the others are left out, and a `type` filter naming one is a 403 naming the scope.
   */
  async listEvents(query: ListEventsQuery, scopes: ReadonlySet<Scope>): Promise<Page<EventDto>> {
    const { type } = query;
    if (type !== undefined) this.requireEventReadable(type, scopes);
    const readable = EVENT_TYPES.filter((each) => scopes.has(readScopeOfEvent(each)!));
    const types = type !== undefined || readable.length === EVENT_TYPES.length ? type : readable;
    const page = await readPage('events', query, { type }, async (afterId, limit) =>
      (await this.events.eventsPage(types, afterId, limit)).map(({ rowId, event }) => ({ id: rowId, event })),
    );
    return page.map(({ event }) => event as EventDto);
  }

  async getEvent(id: string, scopes: ReadonlySet<Scope>): Promise<EventWithDeliveriesDto> {
    const stored = await this.events.findEvent(id);
    if (!stored) throw new EventNotFoundException(id);
    this.requireEventReadable(stored.event.type, scopes);
    const deliveries = await this.deliveries.deliveriesOf(stored.rowId);
    return {
      ...stored.event,
      deliveries: deliveries.map(({ endpointId, state, nextAttemptAt, attempts }) => ({
        endpointId,
        state,
        ...(nextAttemptAt ? { nextAttemptAt: nextAttemptAt.toISOString() } : {}),
        attempts: attempts.map(({ attemptedAt, status, durationMs, error, responseBody }) => ({
          attemptedAt: attemptedAt.toISOString(),
          ...(status === null ? {} : { status }),
          durationMs,
          ...(error === null ? {} : { error }),
          ...(responseBody === null ? {} : { responseBody }),
        })),
      })),
    };
  }

  /** Queues the event again for one endpoint, or for every enabled endpoint subscribed to it; answers how many. */
  async redeliver(id: string, endpointId: string | undefined, scopes: ReadonlySet<Scope>, preconditions: Preconditions): Promise<number> {
    const current = await this.getEvent(id, scopes);
    requirePreconditions(preconditions, `event ${id}`, current);
    const stored = await this.events.findEvent(id);
    if (!stored) throw new EventNotFoundException(id);
    const now = new Date(this.clock.now());
    let targets: StoredEndpoint[];
    if (endpointId !== undefined) targets = [await this.find(endpointId)];
    else targets = (await this.endpoints.enabled()).filter(({ events }) => subscribes(events, stored.event.type));
    let queued = 0;
    for (const endpoint of targets) if (await this.deliveries.redeliver(stored.rowId, endpoint.rowId, now)) queued++;
    this.deliverer.wake();
    return queued;
  }

  /** The endpoint; 404 when there is none, 412 when a precondition sent fails for its representation. */
  private async find(id: string, preconditions: Preconditions = {}): Promise<StoredEndpoint> {
    const endpoint = await this.endpoints.find(id);
    if (!endpoint) throw new WebhookEndpointNotFoundException(id);
    requirePreconditions(preconditions, `webhook endpoint ${id}`, WebhookEndpointDto.from(endpoint));
    return endpoint;
  }

  /** The endpoint as a write decides on it, held until the write commits; 404, or 412 as `find`. */
  private async held(transaction: WriteTransaction, id: string, preconditions: Preconditions): Promise<StoredEndpoint> {
    const endpoint = await this.endpoints.held(transaction, id);
    if (!endpoint) throw new WebhookEndpointNotFoundException(id);
    requirePreconditions(preconditions, `webhook endpoint ${id}`, WebhookEndpointDto.from(endpoint));
    return endpoint;
  }

  /** 403 naming the scope, unless a key holding `scopes` may read the events of `type`. */
  private requireEventReadable(type: string, scopes: ReadonlySet<Scope>): void {
    const needed = readScopeOfEvent(type);
    if (needed !== undefined && !scopes.has(needed))
      throw new InsufficientScopeException(['webhooks:read', needed], scopes, `the events of type ${type} need`);
  }

  /** An endpoint URL as stored; 400 for one no delivery could be made to. */
  private checkUrl(raw: string): string {
    const url = URL.parse(raw);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      throw new ValidationFailedException('url must be an absolute https URL');
    if (url.protocol === 'http:' && !this.config.webhooks.allowHttp) {
      throw new ValidationFailedException('url must be https (plain http is allowed only where the operator set WEBHOOK_ALLOW_HTTP=true)');
    }
    if (url.username || url.password)
      throw new ValidationFailedException('url must not carry credentials: verify deliveries by their signature');
    if (url.hash) throw new ValidationFailedException('url must not have a fragment');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refusal = isIP(host) ? this.policy.refusal(host) : undefined;
    if (refusal) throw new ValidationFailedException(`url: ${refusal}`);
    return url.href;
  }
}
