import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../http/api-error-responses.decorator.js';
import { ParseIdPipe } from '../http/parse-id.pipe.js';
import { ListPetsQuery } from './dto/list-pets.query.js';
import { NewPetDto } from './dto/new-pet.dto.js';
import { PetDto } from './dto/pet.dto.js';
import { PetsService } from './pets.service.js';

@ApiTags('pets')
@ApiBearerAuth('bearer')
@Controller('v1/pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({ operationId: 'listPets', summary: 'List animals', description: 'Animals in ascending id order, optionally only those with one status.' })
  @ApiOkResponse({ description: 'A page of animals.', type: PetDto, isArray: true })
  @ApiErrorResponses({ 400: 'limit or status is not valid (VALIDATION_FAILED).' })
  list(@Query() query: ListPetsQuery): Promise<PetDto[]> {
    return this.pets.list(query);
  }

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ operationId: 'createPet', summary: 'Add an animal' })
  @ApiCreatedResponse({ description: 'The created animal.', type: PetDto })
  @ApiErrorResponses({
    400: 'The body is not a valid NewPet (VALIDATION_FAILED), not JSON (MALFORMED_JSON), or not sent as application/json (UNSUPPORTED_MEDIA_TYPE).',
    413: 'The body is larger than 16 KiB (PAYLOAD_TOO_LARGE).',
  })
  create(@Body() newPet: NewPetDto): Promise<PetDto> {
    return this.pets.create(newPet);
  }

  @Get(':petId')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated: removed on 5 December 2030. Use `GET /pets` with the `status` filter instead.',
    deprecated: true,
  })
  @ApiParam({ name: 'petId', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The identifier of the animal.' })
  @ApiOkResponse({ description: 'The animal.', type: PetDto })
  @ApiErrorResponses({
    400: 'petId is not a positive int64 (VALIDATION_FAILED).',
    404: 'No animal has this id (PET_NOT_FOUND).',
  })
  get(@Param('petId', new ParseIdPipe('petId')) petId: bigint): Promise<PetDto> {
    return this.pets.get(petId);
  }
}
