import { Controller, Get, Param } from '@nestjs/common';
import { ValidQuery } from '../validation/validated.js';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { type ApiKeyPrincipal, Caller } from '../auth/api-key.principal.js';
import { RequiresScope } from '../auth/requires-scope.js';
import { ETAG_HEADER, TaggedRead } from '../http/preconditions.decorators.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { ListRequestsQuery } from './dto/list-requests.query.js';
import { RequestEntryDto } from './dto/request-entry.dto.js';
import { RequestLogService } from './request-log.service.js';

@ApiTags('requests')
@ApiBearerAuth('bearer')
@Controller('v1/requests')
export class RequestLogController {
  constructor(private readonly requests: RequestLogService) {}

  @Get()
  @ApiOperation({
    operationId: 'listRequests',
    summary: 'List your requests',
    description:
      'The requests your API key made, newest first, as the service answered them: every change (POST, PATCH, DELETE) and every ' +
      'failure (and the successful reads, where the operator keeps those). Kept for 7 days (the operator sets it). Entries are ' +
      'written in batches, within about a second of the answer. A key’s rate-limited answers (429) are one entry a minute, ' +
      'whose `count` says how many. When more follow, a `Link` header with `rel="next"`.',
  })
  @ApiOkResponse({
    description: 'A page of requests.',
    type: RequestEntryDto,
    isArray: true,
    headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER },
  })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'limit, status, operation, idempotencyKey or cursor is not valid.',
      example: 'status must be a status such as 404, or a class such as 4xx.',
    },
    REQUEST_LOG_DISABLED: 'The operator has turned the request log off: this service keeps none.',
  })
  @RequiresScope('requests:read')
  list(@Caller() key: ApiKeyPrincipal, @ValidQuery() query: ListRequestsQuery): Promise<Page<RequestEntryDto>> {
    return this.requests.list(key.environment, key.keyId, query);
  }

  @Get(':requestId')
  @ApiOperation({
    operationId: 'getRequest',
    summary: 'Get one of your requests',
    description:
      'The request with this id (an `X-Request-Id`, as every answer, error or not, carries it): what the service saw and answered. ' +
      'Another key’s requests are not found.',
  })
  @ApiParam({
    name: 'requestId',
    type: 'string',
    description: 'The request id: the `X-Request-Id` of its answer.',
    example: '4f1c2d9e-0b7a-4c55-9e1f-3a2b6c8d0e17',
  })
  @ApiOkResponse({ description: 'The request.', type: RequestEntryDto, headers: ETAG_HEADER })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'If-Match is neither `*` nor a list of entity tags.',
      example: 'If-Match must be * or a list of entity tags as the ETag header gives them ("…").',
    },
    REQUEST_NOT_FOUND: 'No request of this API key has this id (or it is older than the log keeps).',
    REQUEST_LOG_DISABLED: 'The operator has turned the request log off: this service keeps none.',
  })
  @RequiresScope('requests:read')
  get(@Caller() key: ApiKeyPrincipal, @Param('requestId') requestId: string): Promise<RequestEntryDto> {
    return this.requests.get(key.environment, key.keyId, requestId);
  }
}
