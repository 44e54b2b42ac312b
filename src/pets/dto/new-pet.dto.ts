import { ApiSchema } from '@nestjs/swagger';
import { PET } from './pet-fields.js';

/** What a create takes (PET): `status` left out means `available`; an explicit null is no value. */
@ApiSchema({ name: 'NewPet', description: 'An animal to add to the store.' })
export class NewPetDto extends PET.createType() {}
