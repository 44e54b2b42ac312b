import { Controller, Delete, Get, Header, HttpCode, HttpStatus, Param, Patch, Post } from '@nestjs/common';
import { ValidBody, ValidQuery } from '../validation/validated.js';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ChangesConditionally, ETAG_HEADER, RequestPreconditions, TaggedRead } from '../http/preconditions.decorators.js';
import type { Preconditions } from '../http/entity-tag.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { DeprecatedRoute } from '../http/deprecated-route.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { ACCEPT_PATCH, ACCEPT_PATCH_HEADER, JSON_BODY_ERRORS, MERGE_PATCH_TYPES } from '../http/json-body.js';
import { ID_SCHEMA, ParseIdPipe } from '../validation/parse-id.pipe.js';
import { ChangesOnce, CREATED_HEADERS, CreatesResource, REPLAYED_HEADER } from '../idempotency/creates-resource.decorator.js';
import { Write, type WriteRequest } from '../idempotency/write-request.js';
import { Changed, Created } from '../http/answers.js';
import { ResourceShape } from '../validation/resource-shape.js';
import { ListPetsQuery } from './dto/list-pets.query.js';
import { PET } from './dto/pet-fields.js';
import { NewPetDto } from './dto/new-pet.dto.js';
import { PetPatchDto } from './dto/pet-patch.dto.js';
import { PetDto } from './dto/pet.dto.js';
import { PetsService } from './pets.service.js';
import { changesExisting, RequiresScope } from '../auth/requires-scope.js';
import { InEnvironment } from '../auth/api-key.principal.js';
import type { Environment } from '../environments/environment.js';

const PET_ID_PARAMETER = { name: 'petId', schema: ID_SCHEMA, description: 'The identifier of the animal.', example: 1 };

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
  @ApiOkResponse({ description: 'A page of animals.', type: PetDto, isArray: true, headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER } })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'limit, status or cursor is not valid, or given as an array or object (`status[]=sold`).',
      example: 'limit must be an integer from 1 to 100.',
    },
  })
  @RequiresScope('pets:read')
  list(@InEnvironment() environment: Environment, @ValidQuery() query: ListPetsQuery): Promise<Page<PetDto>> {
    return this.pets.list(environment, query);
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
  @ApiCreatedResponse({ description: 'The created animal.', type: PetDto, headers: { ...CREATED_HEADERS, ...ETAG_HEADER } })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'The body is not a valid NewPet. Or If-Match or If-None-Match was sent: a create takes neither.',
      example: 'categoryId must be an integer from 1 to 9007199254740991.',
    },
    ...JSON_BODY_ERRORS,
  })
  @RequiresScope('pets:write')
  async create(@ValidBody() newPet: NewPetDto, @Write() write: WriteRequest): Promise<Created<PetDto>> {
    return new Created(await this.pets.create(newPet, write), write.replayed);
  }

  @Get(':petId')
  @Header('Accept-Patch', ACCEPT_PATCH['Accept-Patch'])
  @DeprecatedRoute({ since: new Date('2026-11-21T00:00:00Z'), sunset: new Date('2030-12-05T00:00:00Z'), successor: '/v1/pets' })
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated since 21 November 2026 and removed on 5 December 2030 (`Sunset`). Use `GET /pets` ' +
      'with the `status` filter instead (`Link: rel="successor-version"`).',
    deprecated: true,
  })
  @ApiParam(PET_ID_PARAMETER)
  @TaggedRead()
  @ApiOkResponse({
    description: 'The animal.',
    type: PetDto,
    headers: {
      ...ETAG_HEADER,
      ...ACCEPT_PATCH_HEADER,
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
  get(@InEnvironment() environment: Environment, @Param('petId', new ParseIdPipe('petId')) petId: number): Promise<PetDto> {
    return this.pets.get(environment, petId);
  }

  @Patch(':petId')
  @Header('Accept-Patch', ACCEPT_PATCH['Accept-Patch'])
  @ChangesOnce()
  @ChangesConditionally()
  @ApiOperation({
    operationId: 'updatePet',
    summary: 'Change an animal',
    description:
      `A JSON Merge Patch (RFC 7396; \`application/merge-patch+json\` or \`application/json\`) of ${ResourceShape.named(PET.replaced)}, ` +
      'each valid as in NewPet. Status moves: available to pending or sold, pending to available or sold; ' +
      'sold is final. A pet an open order (placed or approved) holds moves only with that order. With `If-Match`, the ' +
      'change applies only to the representation named. A change is told by a `pet.updated` event with its ' +
      '`previousAttributes`; a patch that changes nothing changes nothing.',
  })
  @ApiParam(PET_ID_PARAMETER)
  @ApiConsumes(...MERGE_PATCH_TYPES)
  @ApiBody({ type: PetPatchDto, examples: { rename: { value: { name: 'Rex II' } }, sell: { value: { status: 'sold' } } } })
  @ApiOkResponse({
    description: 'The animal as changed.',
    type: PetDto,
    headers: { ...ETAG_HEADER, ...ACCEPT_PATCH_HEADER, ...REPLAYED_HEADER },
  })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason:
        'A field is unknown, null or not valid, or petId is not an id. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'name must not be null.',
    },
    ...JSON_BODY_ERRORS,
    PET_NOT_FOUND: 'No animal has this id.',
    INVALID_TRANSITION: 'The status cannot move there from where it stands; the message names the moves it can make.',
    PET_HAS_OPEN_ORDER: 'An open order holds the animal: its status moves with that order.',
  })
  @RequiresScope(...changesExisting('pets'))
  async update(
    @Param('petId', new ParseIdPipe('petId')) petId: number,
    @ValidBody() patch: PetPatchDto,
    @RequestPreconditions() preconditions: Preconditions,
    @Write() write: WriteRequest,
  ): Promise<Changed<PetDto>> {
    return new Changed(await this.pets.update(petId, patch, preconditions, write), write.replayed);
  }

  @Delete(':petId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ChangesConditionally()
  @ApiOperation({
    operationId: 'deletePet',
    summary: 'Remove an animal',
    description:
      'Removes the animal, told by a `pet.deleted` event. An animal that any order names is kept (`409 PET_HAS_ORDERS`). ' +
      'With `If-Match`, only the representation named is removed.',
  })
  @ApiParam(PET_ID_PARAMETER)
  @ApiNoContentResponse({ description: 'The animal is removed.' })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'petId is not an integer from 1 to 2^53-1. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'petId must be an integer from 1 to 9007199254740991.',
    },
    PET_NOT_FOUND: 'No animal has this id, or it was removed already.',
    PET_HAS_ORDERS: 'Orders name the animal: it is kept.',
  })
  @RequiresScope(...changesExisting('pets'))
  async delete(
    @Param('petId', new ParseIdPipe('petId')) petId: number,
    @RequestPreconditions() preconditions: Preconditions,
    // A delete takes no Idempotency-Key (deleting twice leaves the pet deleted): its events name the request only.
    @Write({ keyed: false }) write: WriteRequest,
  ): Promise<void> {
    await this.pets.delete(petId, preconditions, write);
  }
}
