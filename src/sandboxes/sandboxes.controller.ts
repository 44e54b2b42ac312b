import {
  type CanActivate,
  Controller,
  Delete,
  type ExecutionContext,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  UseGuards,
} from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { changesExisting, RequiresScope } from '../auth/requires-scope.js';
import { ValidationFailedException } from '../errors/api-exception.js';
import { Created } from '../http/answers.js';
import { JSON_BODY_ERRORS, readJsonBody } from '../http/json-body.js';
import { ETAG_HEADER, TaggedRead } from '../http/preconditions.decorators.js';
import { absoluteUrl } from '../http/request-origin.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { PageQuery } from '../pagination/page-query.dto.js';
import { CreatedSandboxDto, NewSandboxDto, SandboxDto } from './dto/sandbox.dto.js';
import { SandboxesService } from './sandboxes.service.js';
import { ValidBody, ValidQuery } from '../validation/validated.js';

const SANDBOX_ID_PARAMETER = {
  name: 'sandboxId',
  type: 'string',
  description: 'The identifier of the sandbox (`sbx_…`).',
  example: 'sbx_Q3v8kF0aZ1x2Yb7LmN4pRw',
};
const SANDBOX_NOT_FOUND = { SANDBOX_NOT_FOUND: 'No sandbox in use has this id: unknown, deleted or expired.' } as const;
/** What a sandbox's key is told on every operation here. */
const SANDBOX_KEY_REFUSED = 'the key is a sandbox’s (`psk_test_…`): only live keys manage sandboxes.';

/**
 * Admits a create once its JSON body is read and the Location it will answer can be formed, and
 * refuses an Idempotency-Key: the answer holds a key shown once, which the service never stores, so
 * it has no answer to replay; a client that retries after a lost answer lists its sandboxes instead.
 */
class CreateSandboxGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    if (request.headers['idempotency-key'] !== undefined)
      throw new ValidationFailedException(
        'createSandbox takes no Idempotency-Key: its answer holds an API key shown once and never stored, so none could be ' +
          'replayed. Nothing was created; send it without the header (after a lost answer, list the sandboxes and delete a spare one).',
      );
    await readJsonBody(request, response);
    absoluteUrl(request, request.path);
    return true;
  }
}

@ApiTags('sandboxes')
@ApiBearerAuth('bearer')
@Controller('v1/sandboxes')
export class SandboxesController {
  constructor(private readonly sandboxes: SandboxesService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @UseGuards(new CreateSandboxGuard())
  @ApiOperation({
    operationId: 'createSandbox',
    summary: 'Make a sandbox',
    description:
      'An environment of its own, empty, for tests: its pets, orders, webhook endpoints, events, request log and keys, apart from ' +
      'live’s and every other sandbox’s. The answer holds an API key of the sandbox (`psk_test_…`, every scope but the sandboxes’ ' +
      'own), shown this once; it stops when the sandbox expires (`expiresIn`, 24 hours unless given) or is deleted. The operator ' +
      'allows a number of sandboxes at once (`SANDBOXES_MAX`, 25 by default). Takes no `Idempotency-Key`: the key in the answer is ' +
      'never stored, so there is no answer to replay. Only a live key makes sandboxes.',
  })
  @ApiCreatedResponse({
    description: 'The sandbox, with its API key.',
    type: CreatedSandboxDto,
    headers: { Location: { description: 'The absolute URL of the sandbox.', schema: { type: 'string', format: 'uri' } } },
  })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'The body is not a valid NewSandbox, or an Idempotency-Key was sent.',
      example: 'expiresIn must be an integer number of seconds from 60 to 2592000',
    },
    ...JSON_BODY_ERRORS,
    INSUFFICIENT_SCOPE: SANDBOX_KEY_REFUSED,
    SANDBOX_LIMIT_REACHED: 'As many sandboxes as the operator allows (`SANDBOXES_MAX`) are in use: delete one, or wait for one to expire.',
  })
  @RequiresScope('sandboxes:write')
  async create(@ValidBody() sandbox: NewSandboxDto): Promise<Created<CreatedSandboxDto>> {
    return new Created(await this.sandboxes.create(sandbox));
  }

  @Get()
  @ApiOperation({
    operationId: 'listSandboxes',
    summary: 'List sandboxes',
    description: 'The sandboxes in use, in the order they were made; deleted and expired ones are not listed. Only for live keys.',
  })
  @ApiOkResponse({
    description: 'A page of sandboxes.',
    type: SandboxDto,
    isArray: true,
    headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER },
  })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: { reason: 'limit or cursor is not valid.', example: 'limit must be an integer from 1 to 100.' },
    INSUFFICIENT_SCOPE: SANDBOX_KEY_REFUSED,
  })
  @RequiresScope('sandboxes:read')
  list(@ValidQuery() query: PageQuery): Promise<Page<SandboxDto>> {
    return this.sandboxes.list(query);
  }

  @Get(':sandboxId')
  @ApiOperation({ operationId: 'getSandbox', summary: 'Get a sandbox', description: 'A sandbox in use. Only for live keys.' })
  @ApiOkResponse({ description: 'The sandbox.', type: SandboxDto, headers: ETAG_HEADER })
  @TaggedRead()
  @ApiErrorResponses({ ...SANDBOX_NOT_FOUND, INSUFFICIENT_SCOPE: SANDBOX_KEY_REFUSED })
  @RequiresScope('sandboxes:read')
  @ApiParam(SANDBOX_ID_PARAMETER)
  get(@Param('sandboxId') id: string): Promise<SandboxDto> {
    return this.sandboxes.get(id);
  }

  @Delete(':sandboxId')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'deleteSandbox',
    summary: 'Delete a sandbox',
    description:
      'Its keys are refused at once (within a second on every instance of the service), it is no longer listed, and its data ' +
      'is removed in the background, in small batches, within about a minute. Only for live keys.',
  })
  @ApiAcceptedResponse({ description: 'Deleted: its keys stop now, its data goes in the background.' })
  @ApiErrorResponses({ ...SANDBOX_NOT_FOUND, INSUFFICIENT_SCOPE: SANDBOX_KEY_REFUSED })
  @RequiresScope(...changesExisting('sandboxes'))
  @ApiParam(SANDBOX_ID_PARAMETER)
  async delete(@Param('sandboxId') id: string): Promise<void> {
    await this.sandboxes.delete(id);
  }
}
