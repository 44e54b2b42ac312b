import { ApiSchema, PartialType } from '@nestjs/swagger';
import { MergePatch } from '../../validation/merge-patch.js';
import { NewPetDto } from './new-pet.dto.js';

@ApiSchema({
  name: 'PetPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, each valid as in NewPet; ' +
    'a field left out is unchanged, and none may be null but metadata, whose members merge (null removes one, or all).',
})
@MergePatch(['name', 'categoryId', 'status'] satisfies (keyof NewPetDto)[])
export class PetPatchDto extends PartialType(NewPetDto, { skipNullProperties: false }) {}
