import type { PetStatus } from '../../src/pets/pet-status.js';
import type { OrderStatus } from '../../src/store/order-status.js';
import type { Metadata } from '../../src/validation/metadata.js';

/**
 * The whole pet or order a test expects: the fields it names over what the service answers for a
 * field that was not set. A new optional field gets its default here, and every whole-object
 * assertion (answers, events' data.object, SDK results as JSON, webhook fixtures) follows it.
 * Import as `import * as expected from '../support/resources.js'` and assert
 * `toEqual(expected.pet({ id: expect.any(Number), name: 'Rex', categoryId: 3 }))`.
 */

/** The fields named replace the defaults; the rest of the defaults stay. */
type Over<Defaults, Fields> = Omit<Defaults, keyof Fields> & Fields;

/** What a pet answers with when a field was not set (a fresh object each call: a test may change it). */
const petDefaults = () => ({ status: 'available' as PetStatus, metadata: {} as Metadata });

/** What an order answers with when a field was not set; shipDate is absent when none was given. */
const orderDefaults = () => ({ status: 'placed' as OrderStatus, complete: false, metadata: {} as Metadata });

/** The whole pet: `fields` (id, name, categoryId, and any other it sets) over a pet's defaults. */
export function pet<Fields extends object>(fields: Fields): Over<ReturnType<typeof petDefaults>, Fields> {
  return { ...petDefaults(), ...fields };
}

/** The whole order: `fields` (id, petId, quantity, and any other it sets) over an order's defaults. */
export function order<Fields extends object>(fields: Fields): Over<ReturnType<typeof orderDefaults>, Fields> {
  return { ...orderDefaults(), ...fields };
}
