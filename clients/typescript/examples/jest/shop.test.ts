import { describe, expect, it } from '@jest/globals';
import { NotFoundError, PetStore } from '@petstore/client';

// The run's sandbox: PETSTORE_API_KEY is its key (sandbox-setup.js), PETSTORE_BASE_URL the service.
const petstore = new PetStore();

describe('the shop against the Pet Store, in the run’s sandbox', () => {
  it('starts on an empty store: no pet, no order', async () => {
    expect((await petstore.pets.list()).data).toEqual([]);
    expect((await petstore.store.orders.list()).data).toEqual([]);
  });

  it('sells a pet through an order', async () => {
    const rex = await petstore.pets.create({ name: 'Rex', categoryId: 3, metadata: { sku: 'DOG-1' } });
    const order = await petstore.store.orders.create({ petId: rex.id, quantity: 1 });
    expect(order.status).toBe('placed');
    await petstore.store.orders.update(order.id, { status: 'approved' });
    const delivered = await petstore.store.orders.update(order.id, { status: 'delivered' });
    expect(delivered.complete).toBe(true);
    const sold = await petstore.pets.list({ status: 'sold' });
    expect(sold.data.map((pet) => pet.metadata)).toEqual([{ sku: 'DOG-1' }]);
  });

  it('is told an order for a pet the store does not have is not found', async () => {
    await expect(petstore.store.orders.create({ petId: 987654321, quantity: 1 })).rejects.toBeInstanceOf(NotFoundError);
  });
});
