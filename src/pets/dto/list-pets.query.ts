import { IsOptional } from 'class-validator';
import { PageQuery } from '../../pagination/page-query.dto.js';
import { type Metadata, MetadataFilter } from '../../validation/metadata.js';
import type { PetStatus } from '../pet-status.js';
import { PetField } from './pet-fields.js';

export class ListPetsQuery extends PageQuery {
  @PetField.status({ required: false, description: 'Only animals with this status.', example: 'available' })
  @IsOptional()
  status?: PetStatus;

  @MetadataFilter('animals')
  metadata?: Metadata;
}
