import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

export class PetNotFoundException extends ApiException {
  constructor(petId: number) {
    super(HttpStatus.NOT_FOUND, 'PET_NOT_FOUND', `No pet has id ${petId}.`);
  }
}
