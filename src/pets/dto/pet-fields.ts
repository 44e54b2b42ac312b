import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { LivemodeProperty } from '../../environments/livemode-property.js';
import { IsId } from '../../validation/is-id.validator.js';
import { IsName } from '../../validation/is-name.validator.js';
import { type Metadata, MetadataProperty, NO_METADATA } from '../../validation/metadata.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import { field, type Presence, ResourceShape } from '../../validation/resource-shape.js';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';

/**
 * Each field of a pet: its validation and its document, stated once, given how present it is where
 * it is used (`presence`: optional, nullable, a default; PET decides it for each shape). Spread it
 * last into the ApiProperty, or the document says a field is required or not nullable where it is not.
 */
export const PetField = {
  name: (presence: Presence = {}) =>
    applyDecorators(
      ApiProperty({
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '\\S',
        description: "The animal's name: 1 to 255 characters, not only white space, stored exactly as sent.",
        example: 'Rex',
        ...presence,
      }),
      IsName(1, 255),
    ),

  categoryId: (presence: Presence = {}) =>
    applyDecorators(
      ApiProperty({ ...ID_SCHEMA, description: 'Identifier of the category the animal belongs to.', example: 3, ...presence }),
      IsId('categoryId'),
    ),

  status: (document: { required?: boolean; default?: PetStatus; description?: string; example?: PetStatus } = {}) =>
    applyDecorators(
      ApiProperty({
        enum: PET_STATUSES,
        enumName: 'PetStatus',
        description:
          'Availability status. It moves (updatePet) from available to pending or sold, from pending to available or sold; ' +
          'sold is final. A pet an open order holds moves only with that order.',
        ...document,
      }),
      IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` }),
    ),

  metadata: MetadataProperty,
};

/**
 * A pet, declared once: its fields in the order every answer lists them, each with how a create
 * fills it in and a Merge Patch changes it (ResourceShape). Pet, NewPet and PetPatch, the columns
 * PetsRepository reads and writes, a create's and a change's pet, and the document's lists of
 * fields all come from here: a new field is an entry here, its column (pet.entity.ts) and its
 * migration.
 */
export const PET = new ResourceShape({
  id: field.assigned<number>(() => ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned on creation.', example: 1 })),
  name: field.required<string>(PetField.name),
  categoryId: field.required<number>(PetField.categoryId),
  status: field.defaulted<PetStatus>('available', PetField.status),
  metadata: field.merged<Metadata>(NO_METADATA, PetField.metadata),
  // Last in every answer (DECISIONS "Sandboxes"); given by the environment, as the id by the insert.
  livemode: field.assigned<boolean>(() => LivemodeProperty()),
});
