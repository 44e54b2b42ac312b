import { InvalidTransitionException } from '../errors/api-exception.js';
import type { PetStatus } from './pet-status.js';

/** Where a pet's status may move directly (PATCH); sold is final. An order moves its pet by its own rules. */
const MOVES: Readonly<Record<PetStatus, readonly PetStatus[]>> = {
  available: ['pending', 'sold'],
  pending: ['available', 'sold'],
  sold: [],
};

/** Throws 409 INVALID_TRANSITION, naming the moves allowed, unless `to` is `from` or a move from it. */
export function checkPetMove(petId: number, from: PetStatus, to: PetStatus): void {
  if (to !== from && !MOVES[from].includes(to)) throw new InvalidTransitionException(`pet ${petId}`, from, to, MOVES[from]);
}
