import { Controller, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ValidBody, ValidQuery } from '../validation/validated.js';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { type ApiKeyPrincipal, Caller, InEnvironment } from '../auth/api-key.principal.js';
import { changesExisting, RequiresScope } from '../auth/requires-scope.js';
import type { Environment } from '../environments/environment.js';
import type { Preconditions } from '../http/entity-tag.js';
import { ChangesConditionally, ETAG_HEADER, RequestPreconditions, TaggedRead } from '../http/preconditions.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { JSON_BODY_ERRORS, JsonBodyGuard } from '../http/json-body.js';
import { EventDto, EventWithDeliveriesDto, ListEventsQuery, QueuedDto, RedeliverDto } from './dto/event.dto.js';
import { WebhooksService } from './webhooks.service.js';

const EVENT_ID_PARAMETER = {
  name: 'eventId',
  type: 'string',
  description: 'The identifier of the event (`evt_…`).',
  example: 'evt_2b7Vq0kQm9XcRz1L8hNw',
};

const EVENT_SCOPE_ERROR = {
  INSUFFICIENT_SCOPE: 'the event is of what the key may not read (`pet.*` needs `pets:read`, `order.*` `store:read`).',
} as const;

@ApiTags('webhooks')
@ApiBearerAuth('bearer')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'List events',
    description:
      'Events of the last 30 days, oldest first. A reader walking the list while writes happen can miss an event whose write ' +
      'committed after the reader passed its place (ids are taken before commit): to catch up, read again from a page before ' +
      'the last one seen, or rely on webhook deliveries, which miss nothing. Only the events of what the key may read are listed: ' +
      '`pet.*` with `pets:read`, `order.*` with `store:read`.',
  })
  @ApiOkResponse({ description: 'A page of events.', type: EventDto, isArray: true, headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER } })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: { reason: 'limit, type or cursor is not valid.', example: 'type must be one of pet.created, order.placed' },
    INSUFFICIENT_SCOPE: '`type` names events of what the key may not read (`pet.*` needs `pets:read`, `order.*` `store:read`).',
  })
  @RequiresScope('webhooks:read')
  list(
    @InEnvironment() environment: Environment,
    @Caller() key: ApiKeyPrincipal,
    @ValidQuery() query: ListEventsQuery,
  ): Promise<Page<EventDto>> {
    return this.webhooks.listEvents(environment, query, key.scopes);
  }

  @Get(':eventId')
  @ApiOperation({
    operationId: 'getEvent',
    summary: 'Get an event and its deliveries',
    description:
      'With each endpoint’s delivery and every attempt: time, answer status, duration, error, the first KiB of the answer. ' +
      'A `pet.*` event needs `pets:read` as well, an `order.*` event `store:read`.',
  })
  @ApiOkResponse({ description: 'The event.', type: EventWithDeliveriesDto, headers: ETAG_HEADER })
  @TaggedRead()
  @ApiErrorResponses({ EVENT_NOT_FOUND: 'No event has this id.', ...EVENT_SCOPE_ERROR })
  @RequiresScope('webhooks:read')
  @ApiParam(EVENT_ID_PARAMETER)
  get(
    @InEnvironment() environment: Environment,
    @Caller() key: ApiKeyPrincipal,
    @Param('eventId') id: string,
  ): Promise<EventWithDeliveriesDto> {
    return this.webhooks.getEvent(environment, id, key.scopes);
  }

  @Post(':eventId/redeliver')
  @HttpCode(HttpStatus.ACCEPTED)
  @UseGuards(JsonBodyGuard)
  @ApiOperation({
    operationId: 'redeliverEvent',
    summary: 'Send an event again',
    description:
      'To one endpoint, or to every enabled endpoint subscribed to its type; from the first attempt. A `pet.*` event needs ' +
      '`pets:read` as well, an `order.*` event `store:read`; an endpoint whose maker’s key may not read it now is not sent it. ' +
      '`If-Match` and `If-None-Match` are evaluated against the event as `getEvent` answers it.',
  })
  @ChangesConditionally()
  // Swagger UI's Try it out sends the first example: the optional endpointId's would name an endpoint that is not there (404).
  @ApiBody({
    type: RedeliverDto,
    examples: {
      everySubscribedEndpoint: { summary: 'To every enabled endpoint subscribed to its type', value: {} },
      oneEndpoint: { summary: 'To one endpoint, by its id', value: { endpointId: 'we_3q8kF0aZ1x2Yb7Lm' } },
    },
  })
  @ApiAcceptedResponse({ description: 'How many deliveries were queued.', type: QueuedDto })
  @ApiErrorResponses({
    EVENT_NOT_FOUND: 'No event has this id.',
    WEBHOOK_ENDPOINT_NOT_FOUND: 'No webhook endpoint has the id given.',
    ...JSON_BODY_ERRORS,
    VALIDATION_FAILED: {
      reason: 'endpointId is not a string. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'endpointId must be a string',
    },
    ...EVENT_SCOPE_ERROR,
  })
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(EVENT_ID_PARAMETER)
  async redeliver(
    @InEnvironment() environment: Environment,
    @Caller() key: ApiKeyPrincipal,
    @Param('eventId') id: string,
    @ValidBody() { endpointId }: RedeliverDto,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<QueuedDto> {
    return { queued: await this.webhooks.redeliver(environment, id, endpointId, key.scopes, preconditions) };
  }
}
