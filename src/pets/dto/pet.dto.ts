import { ApiSchema } from '@nestjs/swagger';
import { PET } from './pet-fields.js';

/** An animal: a NewPet plus the identifier the service assigned, and always a status (PET). */
@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto extends PET.answerType() {}
