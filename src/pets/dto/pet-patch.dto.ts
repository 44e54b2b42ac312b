import { ApiSchema } from '@nestjs/swagger';
import { ResourceShape } from '../../validation/resource-shape.js';
import { PET } from './pet-fields.js';

/** What a null does to each field that takes one, as the description names them: from the declaration, so the list is never stale. */
const NULLS = PET.nullRemoves.map((name) =>
  PET.fields[name].rule === 'merged' ? `${name}, whose members merge (null removes one, or all)` : `${name} (null clears it)`,
);

/** A Merge Patch of a pet (PET): its fields, and which of them a null removes, come from the declaration. */
@ApiSchema({
  name: 'PetPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, each valid as in NewPet; ' +
    `a field left out is unchanged, and none may be null but ${ResourceShape.listed(NULLS)}.`,
})
export class PetPatchDto extends PET.patchType() {}
