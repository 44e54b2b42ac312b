import { describe, expect, it } from '@jest/globals';
import { DeliverySlots, MAX_IN_FLIGHT, MAX_IN_FLIGHT_PER_ENDPOINT, pickClaims } from '../../src/webhook-delivery/delivery-slots.js';

describe('delivery slots', () => {
  it('start all free: MAX_IN_FLIGHT in all, MAX_IN_FLIGHT_PER_ENDPOINT to each endpoint', () => {
    const slots = new DeliverySlots();
    expect(slots.free).toBe(MAX_IN_FLIGHT);
    expect(slots.freeByEndpoint([1, 2])).toEqual(
      new Map([
        [1, MAX_IN_FLIGHT_PER_ENDPOINT],
        [2, MAX_IN_FLIGHT_PER_ENDPOINT],
      ]),
    );
  });

  it('leave out an endpoint whose share is taken, and give its slots back as its attempts end', () => {
    const slots = new DeliverySlots(5, 2);
    slots.take(1);
    slots.take(1);
    slots.take(2);
    expect(slots.free).toBe(2);
    expect(slots.freeByEndpoint([1, 2, 3])).toEqual(
      new Map([
        [2, 1],
        [3, 2],
      ]),
    );
    slots.release(1);
    expect(slots.free).toBe(3);
    expect(slots.freeByEndpoint([1])).toEqual(new Map([[1, 1]]));
  });
});

describe('picking the deliveries a claim takes', () => {
  const due = (...endpoints: number[]) => endpoints.map((endpointRowId, id) => ({ id, endpointRowId }));

  it('takes at most each endpoint’s free slots, so a backlog at the head of the queue leaves room for the others', () => {
    const picked = pickClaims(
      due(1, 1, 1, 1, 2, 1, 2),
      new Map([
        [1, 2],
        [2, 8],
      ]),
      10,
    );
    expect(picked.map(({ id }) => id)).toEqual([0, 1, 4, 6]);
  });

  it('takes no more than the limit, the soonest due first', () => {
    expect(
      pickClaims(
        due(1, 2, 1, 2),
        new Map([
          [1, 8],
          [2, 8],
        ]),
        3,
      ).map(({ id }) => id),
    ).toEqual([0, 1, 2]);
  });

  it('takes nothing of an endpoint without free slots, nor with a limit of 0', () => {
    expect(pickClaims(due(1, 3), new Map([[1, 1]]), 10).map(({ id }) => id)).toEqual([0]);
    expect(pickClaims(due(1), new Map([[1, 1]]), 0)).toEqual([]);
  });
});
