import { Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ValidBody, ValidQuery } from '../validation/validated.js';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { type ApiKeyPrincipal, Caller, InEnvironment } from '../auth/api-key.principal.js';
import { changesExisting, RequiresScope } from '../auth/requires-scope.js';
import type { Environment } from '../environments/environment.js';
import type { Preconditions } from '../http/entity-tag.js';
import { ChangesConditionally, ETAG_HEADER, RequestPreconditions, TaggedRead } from '../http/preconditions.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { CREATED_HEADERS, CreatesResource } from '../idempotency/creates-resource.decorator.js';
import { Write, type WriteRequest } from '../idempotency/write-request.js';
import { Created } from '../http/answers.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { PageQuery } from '../pagination/page-query.dto.js';
import { JSON_BODY_ERRORS, JsonBodyGuard } from '../http/json-body.js';
import { EventDto, QueuedDto, RecoverDto } from './dto/event.dto.js';
import { CreatedWebhookEndpointDto, NewWebhookEndpointDto, RotatedSecretDto, WebhookEndpointDto } from './dto/webhook-endpoint.dto.js';
import { WebhooksService } from './webhooks.service.js';

const ENDPOINT_NOT_FOUND = { WEBHOOK_ENDPOINT_NOT_FOUND: 'No webhook endpoint has this id.' } as const;
/** The 400 of a change that takes preconditions (RequestPreconditions), for the document. */
const MALFORMED_PRECONDITION = {
  reason: 'If-Match or If-None-Match is not `*` or a list of entity tags.',
  example: 'If-Match must be * or a list of entity tags as the ETag header gives them ("…").',
} as const;
/** The errors of a change of an endpoint without a body. */
const ENDPOINT_CHANGE_ERRORS = { ...ENDPOINT_NOT_FOUND, VALIDATION_FAILED: MALFORMED_PRECONDITION } as const;
const ENDPOINT_ID_PARAMETER = {
  name: 'endpointId',
  type: 'string',
  description: 'The identifier of the endpoint (`we_…`).',
  example: 'we_3q8kF0aZ1x2Yb7Lm',
};

@ApiTags('webhooks')
@ApiBearerAuth('bearer')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @CreatesResource()
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint',
    description:
      'Events of the types named are POSTed to the URL from now on, signed as the Standard Webhooks specification says. ' +
      'The answer holds the signing secret, shown this once. An endpoint receives only the events of what the key that made it ' +
      'may read, when each is sent: `pet.*` needs `pets:read`, `order.*` `store:read`, `*` both; subscribing to more than the ' +
      'key may read is a 403 naming the scope it lacks. Once made, an endpoint follows its maker’s key: a key rolled hands its ' +
      'endpoints to its successor, and a key narrowed, revoked or expired stops the events it may no longer read.',
  })
  @ApiCreatedResponse({ description: 'The endpoint, with its signing secret.', type: CreatedWebhookEndpointDto, headers: CREATED_HEADERS })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason:
        'The body is not a valid NewWebhookEndpoint, or its URL may not be sent to. Or If-Match or If-None-Match was sent: a create takes neither.',
      example: 'url must be an absolute https URL',
    },
    ...JSON_BODY_ERRORS,
    INSUFFICIENT_SCOPE: 'the events asked for are of what the key may not read (`pet.*` needs `pets:read`, `order.*` `store:read`).',
  })
  @RequiresScope('webhooks:write')
  async create(
    @Caller() maker: ApiKeyPrincipal,
    @ValidBody() endpoint: NewWebhookEndpointDto,
    @Write() write: WriteRequest,
  ): Promise<Created<CreatedWebhookEndpointDto>> {
    return new Created(await this.webhooks.createEndpoint(endpoint, maker, write), write.replayed);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: 'In the order they were made; secrets are never listed.',
  })
  @ApiOkResponse({
    description: 'A page of endpoints.',
    type: WebhookEndpointDto,
    isArray: true,
    headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER },
  })
  @TaggedRead()
  @ApiErrorResponses({ VALIDATION_FAILED: { reason: 'limit or cursor is not valid.', example: 'limit must be an integer from 1 to 100.' } })
  @RequiresScope('webhooks:read')
  list(@InEnvironment() environment: Environment, @ValidQuery() query: PageQuery): Promise<Page<WebhookEndpointDto>> {
    return this.webhooks.listEndpoints(environment, query);
  }

  @Get(':endpointId')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint' })
  @ApiOkResponse({ description: 'The endpoint.', type: WebhookEndpointDto, headers: ETAG_HEADER })
  @TaggedRead()
  @ApiErrorResponses(ENDPOINT_NOT_FOUND)
  @RequiresScope('webhooks:read')
  @ApiParam(ENDPOINT_ID_PARAMETER)
  get(@InEnvironment() environment: Environment, @Param('endpointId') id: string): Promise<WebhookEndpointDto> {
    return this.webhooks.getEndpoint(environment, id);
  }

  @Delete(':endpointId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; its delivery log goes with it.',
  })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrorResponses(ENDPOINT_CHANGE_ERRORS)
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  async delete(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<void> {
    await this.webhooks.deleteEndpoint(environment, id, preconditions);
  }

  @Post(':endpointId/disable')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'disableWebhookEndpoint',
    summary: 'Disable a webhook endpoint',
    description: 'Nothing is sent to it until it is enabled; events meanwhile are not queued for it.',
  })
  @ApiOkResponse({ description: 'The endpoint, disabled.', type: WebhookEndpointDto })
  @ApiErrorResponses(ENDPOINT_CHANGE_ERRORS)
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  disable(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.setEnabled(environment, id, false, preconditions);
  }

  @Post(':endpointId/enable')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'enableWebhookEndpoint',
    summary: 'Enable a webhook endpoint',
    description: 'Deliveries still pending resume; `recover` sends again what failed meanwhile.',
  })
  @ApiOkResponse({ description: 'The endpoint, enabled.', type: WebhookEndpointDto })
  @ApiErrorResponses(ENDPOINT_CHANGE_ERRORS)
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  enable(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.setEnabled(environment, id, true, preconditions);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Roll the signing secret',
    description:
      'Deliveries are signed with the new secret and, for 24 hours, with the old one too (two signatures), so a receiver can switch without losing one.',
  })
  @ApiOkResponse({ description: 'The new secret, shown this once.', type: RotatedSecretDto })
  @ApiErrorResponses(ENDPOINT_CHANGE_ERRORS)
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  rotateSecret(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<RotatedSecretDto> {
    return this.webhooks.rotateSecret(environment, id, preconditions);
  }

  @Post(':endpointId/test')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'testWebhookEndpoint',
    summary: 'Send a test event',
    description: 'A `webhook.test` event, to this endpoint only; its delivery shows in `GET /events/{id}`.',
  })
  @ApiAcceptedResponse({ description: 'The test event, queued.', type: EventDto })
  @ApiErrorResponses(ENDPOINT_CHANGE_ERRORS)
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  test(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @RequestPreconditions() preconditions: Preconditions,
    @Write({ keyed: false }) write: WriteRequest,
  ): Promise<EventDto> {
    return this.webhooks.sendTest(environment, id, preconditions, write);
  }

  @Post(':endpointId/recover')
  @HttpCode(HttpStatus.ACCEPTED)
  @UseGuards(JsonBodyGuard)
  @ApiOperation({
    operationId: 'recoverWebhookEndpoint',
    summary: 'Send again what failed',
    description: 'Every delivery to this endpoint that failed, of events since `since`, from its first attempt.',
  })
  @ApiAcceptedResponse({ description: 'How many deliveries were queued.', type: QueuedDto })
  @ApiErrorResponses({
    ...ENDPOINT_NOT_FOUND,
    ...JSON_BODY_ERRORS,
    VALIDATION_FAILED: {
      reason:
        'since is not an RFC 3339 date-time with an offset in the years 1000 to 9999. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'since must be an RFC 3339 date-time with an offset, such as 2026-12-01T09:30:00Z, in the years 1000 to 9999.',
    },
  })
  @ChangesConditionally()
  @RequiresScope(...changesExisting('webhooks'))
  @ApiParam(ENDPOINT_ID_PARAMETER)
  async recover(
    @InEnvironment() environment: Environment,
    @Param('endpointId') id: string,
    @ValidBody() { since }: RecoverDto,
    @RequestPreconditions() preconditions: Preconditions,
  ): Promise<QueuedDto> {
    return { queued: await this.webhooks.recover(environment, id, new Date(since), preconditions) };
  }
}
