import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../pagination/page-query.dto.js';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';
import { STATUS_PROPERTY } from './pet-properties.js';

export class ListPetsQuery extends PageQuery {
  @ApiPropertyOptional({ ...STATUS_PROPERTY, description: 'Only animals with this status.', example: 'available' })
  @IsOptional()
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}
