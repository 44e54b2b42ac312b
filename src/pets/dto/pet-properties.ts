import type { ApiPropertyOptions } from '@nestjs/swagger';
import { PET_STATUSES } from '../pet-status.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';

/** The document's view of the fields Pet and NewPet share, so their bounds are stated once. */
export const NAME_PROPERTY: ApiPropertyOptions = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: "The animal's name: 1 to 255 characters, not only white space, stored exactly as sent.",
  example: 'Rex',
};

export const CATEGORY_ID_PROPERTY: ApiPropertyOptions = {
  ...ID_SCHEMA,
  description: 'Identifier of the category the animal belongs to.',
  example: 3,
};

export const STATUS_PROPERTY: ApiPropertyOptions = {
  enum: PET_STATUSES,
  enumName: 'PetStatus',
  description: 'Availability status.',
};
