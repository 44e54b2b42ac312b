import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';
import type { PetStatus } from './pet-status.js';

/** A direct status move of a pet an open order holds: it moves with that order. */
export class PetHasOpenOrderException extends ApiException {
  constructor(petId: number, orderId: number) {
    super(
      HttpStatus.CONFLICT,
      'PET_HAS_OPEN_ORDER',
      `Pet ${petId} is held by order ${orderId}: its status moves with that order (PATCH it, or cancel it).`,
      {},
      { scope: 'store:read', message: `The status of pet ${petId} cannot change now.` },
    );
  }
}

/** A delete of a pet that orders name: they keep it. */
export class PetHasOrdersException extends ApiException {
  constructor(petId: number) {
    super(
      HttpStatus.CONFLICT,
      'PET_HAS_ORDERS',
      `Pet ${petId} is named by orders, which keep it: it cannot be deleted.`,
      {},
      { scope: 'store:read', message: `Pet ${petId} cannot be deleted.` },
    );
  }
}

/** An order for a pet that is not available. */
export class PetNotAvailableException extends ApiException {
  constructor(petId: number, status: PetStatus) {
    super(
      HttpStatus.CONFLICT,
      'PET_NOT_AVAILABLE',
      `Pet ${petId} is ${status}, not available: it cannot be ordered.`,
      {},
      { scope: 'pets:read', message: `Pet ${petId} cannot be ordered.` },
    );
  }
}
