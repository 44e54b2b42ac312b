import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../docs/api-error-responses.decorator.js';
import { DeprecatedRoute } from '../docs/deprecated-route.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { JSON_BODY_ERRORS } from '../validation/json-body.guard.js';
import { ID_SCHEMA, ParseIdPipe } from '../validation/parse-id.pipe.js';
import { CREATED_HEADERS, CreatesResource } from '../idempotency/creates-resource.decorator.js';
import { Idempotency } from '../idempotency/idempotency-claim.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.repository.js';
import { ListPetsQuery } from './dto/list-pets.query.js';
import { NewPetDto } from './dto/new-pet.dto.js';
import { PetDto } from './dto/pet.dto.js';
import { PetsService } from './pets.service.js';
import { RequiresScope } from '../auth/scopes.js';

@ApiTags('pets')
@ApiBearerAuth('bearer')
@Controller('v1/pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Animals in ascending id order, optionally only those with one status. When more follow, the ' +
      'response has a `Link` header with `rel="next"`: the URL of the next page.',
  })
  @ApiOkResponse({ description: 'A page of animals.', type: PetDto, isArray: true, headers: NEXT_PAGE_LINK_HEADER })
  @ApiErrorResponses({
    VALIDATION_FAILED: { reason: 'limit, status or cursor is not valid.', example: 'limit must be an integer from 1 to 100.' },
  })
  @RequiresScope('pets:read')
  list(@Query() query: ListPetsQuery): Promise<Page<PetDto>> {
    return this.pets.list(query);
  }

  @Post()
  @CreatesResource()
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Add an animal',
    description:
      'Stores a NewPet and answers the Pet with its new id and a `Location` header. `status` defaults to ' +
      '`available`. Send an `Idempotency-Key` to make a retry safe: it never adds the animal twice.',
  })
  @ApiCreatedResponse({ description: 'The created animal.', type: PetDto, headers: CREATED_HEADERS })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'The body is not a valid NewPet.',
      example: 'categoryId must be an integer from 1 to 9007199254740991.',
    },
    ...JSON_BODY_ERRORS,
  })
  @RequiresScope('pets:write')
  create(@Body() newPet: NewPetDto, @Idempotency() idempotency?: IdempotentRequest): Promise<PetDto> {
    return this.pets.create(newPet, idempotency);
  }

  @Get(':petId')
  @DeprecatedRoute({ since: new Date('2026-11-21T00:00:00Z'), sunset: new Date('2030-12-05T00:00:00Z'), successor: '/v1/pets' })
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated since 21 November 2026 and removed on 5 December 2030 (`Sunset`). Use `GET /pets` ' +
      'with the `status` filter instead (`Link: rel="successor-version"`).',
    deprecated: true,
  })
  @ApiParam({ name: 'petId', schema: ID_SCHEMA, description: 'The identifier of the animal.' })
  @ApiOkResponse({
    description: 'The animal.',
    type: PetDto,
    headers: {
      Deprecation: {
        description: 'RFC 9745: deprecated since this time (`@` and Unix seconds).',
        schema: { type: 'string', example: '@1795219200' },
      },
      Sunset: {
        description: 'RFC 8594: the operation is removed at this time.',
        schema: { type: 'string', example: 'Thu, 05 Dec 2030 00:00:00 GMT' },
      },
      Link: { description: 'The replacement: `<…/v1/pets>; rel="successor-version"`.', schema: { type: 'string' } },
    },
  })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'petId is not an integer from 1 to 2^53-1.',
      example: 'petId must be an integer from 1 to 9007199254740991.',
    },
    PET_NOT_FOUND: 'No animal has this id.',
  })
  @RequiresScope('pets:read')
  get(@Param('petId', new ParseIdPipe('petId')) petId: number): Promise<PetDto> {
    return this.pets.get(petId);
  }
}
