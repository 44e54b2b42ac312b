import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ExperimentalOperation } from '../openapi/experimental-operation.decorator.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { ETAG_HEADER, TaggedRead } from '../http/preconditions.decorators.js';
import { PetsService } from '../pets/pets.service.js';
import { InventoryDto } from './dto/inventory.dto.js';
import { RequiresScope } from '../auth/requires-scope.js';
import { InEnvironment } from '../auth/api-key.principal.js';
import type { Environment } from '../environments/environment.js';

@ApiTags('store')
@ApiBearerAuth('bearer')
@Controller('v1/store/inventory')
export class InventoryController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ExperimentalOperation({
    operationId: 'getInventory',
    summary: 'Count animals by status',
    description: 'How many animals have each status, 0 for a status none has.',
  })
  @ApiOkResponse({ description: 'How many animals have each status.', type: InventoryDto, headers: ETAG_HEADER })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'If-Match is neither `*` nor a list of entity tags.',
      example: 'If-Match must be * or a list of entity tags as the ETag header gives them ("…").',
    },
  })
  @RequiresScope('store:read')
  get(@InEnvironment() environment: Environment): Promise<InventoryDto> {
    return this.pets.countByStatus(environment);
  }
}
