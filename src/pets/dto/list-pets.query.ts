import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { integerFromQuery } from '../../http/query-transforms.js';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';
import { STATUS_PROPERTY } from './pet-properties.js';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

export class ListPetsQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Maximum number of animals returned.' })
  @Transform(integerFromQuery)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(100, { message: LIMIT_MESSAGE })
  limit: number = 20;

  @ApiPropertyOptional({ ...STATUS_PROPERTY, description: 'Only animals with this status.' })
  @IsOptional()
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}
