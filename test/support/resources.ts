import type { PetStatus } from '../../src/pets/pet-status.js';
import type { OrderStatus } from '../../src/store/order-status.js';
import type { Metadata } from '../../src/validation/metadata.js';
import { PET } from '../../src/pets/dto/pet-fields.js';
import { ORDER } from '../../src/store/dto/order-fields.js';
import type { Fields } from '../../src/validation/resource-shape.js';

/**
 * The whole pet or order a test expects: the fields it names over what the service answers for a
 * field that was not set, from the declaration (a new optional field's default follows by itself), and every whole-object
 * assertion (answers, events' data.object, SDK results as JSON, webhook fixtures) follows it.
 * Import as `import * as expected from '../support/resources.js'` and assert
 * `toEqual(expected.pet({ id: expect.any(Number), name: 'Rex', categoryId: 3 }))`.
 */

/** The fields named replace the defaults; the rest of the defaults stay. */
type Over<Defaults, Fields> = Omit<Defaults, keyof Fields> & Fields;

/**
 * What a shape's answer holds for each field a create may leave out, from its declaration (PET,
 * ORDER): a defaulted field's default, a clearable one's null, a merged one's empty value. A fresh
 * object each call: a test may change it.
 */
function defaultsOf(shape: { readonly fields: Fields }): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(shape.fields).flatMap(([name, { rule, value }]): [string, unknown][] => {
      if (rule === 'defaulted' || rule === 'merged') return [[name, structuredClone(value)]];
      return rule === 'clearable' ? [[name, null]] : [];
    }),
  );
}

/** What a pet answers with when a field was not set; a live one's (a sandbox's says `livemode: false`). */
const petDefaults = () => ({ ...(defaultsOf(PET) as { status: PetStatus; metadata: Metadata }), livemode: true });

/** What an order answers with when a field was not set; shipDate is absent when none was given; a live one's. */
const orderDefaults = () => ({ ...(defaultsOf(ORDER) as { status: OrderStatus; metadata: Metadata }), complete: false, livemode: true });

/** The whole pet: `fields` (id, name, categoryId, and any other it sets) over a pet's defaults. */
export function pet<Fields extends object>(fields: Fields): Over<ReturnType<typeof petDefaults>, Fields> {
  return { ...petDefaults(), ...fields };
}

/** The whole order: `fields` (id, petId, quantity, and any other it sets) over an order's defaults. */
export function order<Fields extends object>(fields: Fields): Over<ReturnType<typeof orderDefaults>, Fields> {
  return { ...orderDefaults(), ...fields };
}
