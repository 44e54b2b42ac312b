import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { webhooks, WebhookVerificationError } from '../../clients/typescript/src/index.js';
import { API_VERSION } from '../../src/config/api-version.js';
import * as expected from '../support/resources.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(32).toString('base64')}`;
const reference = new Webhook(secret);
const event = {
  id: 'evt_2b7Vq0kQm9XcRz1L8hNw',
  type: 'pet.created',
  createdAt: '2026-11-25T08:00:00.000Z',
  apiVersion: API_VERSION,
  data: { object: expected.pet({ id: 7, name: 'Rex 🐕', categoryId: 3, metadata: { erp_id: 'A-17' } }) },
};
const payload = JSON.stringify(event);

/** Headers as the reference library signs them (the specification's own implementation). */
function signedByReference(body: string, at = new Date(), webhook = reference) {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { 'webhook-id': event.id, 'webhook-timestamp': timestamp, 'webhook-signature': webhook.sign(event.id, at, body) };
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof WebhookVerificationError)) throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error.message;
}

describe("the SDK's webhooks.verify against the Standard Webhooks reference library", () => {
  it('accepts what the reference library signs, as a string, as bytes and through fetch Headers', async () => {
    const headers = signedByReference(payload);
    expect(await webhooks.verify(payload, headers, secret)).toEqual(event);
    expect(await webhooks.verify(Buffer.from(payload), headers, secret)).toEqual(event);
    expect(await webhooks.verify(new TextEncoder().encode(payload), new Headers(headers), secret)).toEqual(event);
  });

  it('signs what the reference library accepts', async () => {
    const headers = await webhooks.sign(payload, secret);
    expect(reference.verify(payload, headers)).toEqual(event);
    expect(headers['webhook-id']).toBe(event.id);
  });

  it('refuses, as the reference library does, a body changed or re-serialized after signing', async () => {
    const headers = signedByReference(payload);
    const reserialized = JSON.stringify(JSON.parse(payload), null, 2);
    const changed = payload.replace('"id":7', '"id":8');
    for (const body of [reserialized, changed]) {
      expect(() => reference.verify(body, headers)).toThrow();
      expect(await refusal(webhooks.verify(body, headers, secret))).toMatch(/No webhook-signature matches/);
    }
  });

  it('refuses a signature under another secret, and takes either of two secrets while one rolls', async () => {
    const underOther = signedByReference(payload, new Date(), new Webhook(otherSecret));
    expect(await refusal(webhooks.verify(payload, underOther, secret))).toMatch(/No webhook-signature matches/);
    expect(await webhooks.verify(payload, underOther, [secret, otherSecret])).toEqual(event);
  });

  it('takes any one of several signatures, as the service sends two while a secret rolls', async () => {
    const headers = signedByReference(payload);
    const foreign = new Webhook(otherSecret).sign(event.id, new Date(Number(headers['webhook-timestamp']) * 1000), payload);
    const both = { ...headers, 'webhook-signature': `${foreign} ${headers['webhook-signature']}` };
    expect(await webhooks.verify(payload, both, secret)).toEqual(event);
    expect(reference.verify(payload, both)).toEqual(event);
  });

  it('refuses a timestamp more than 5 minutes from now, either way, as the reference library does', async () => {
    const now = new Date();
    for (const offsetSeconds of [-301, 301]) {
      const headers = signedByReference(payload, new Date(now.getTime() + offsetSeconds * 1000));
      expect(() => reference.verify(payload, headers)).toThrow();
      expect(await refusal(webhooks.verify(payload, headers, secret, { now }))).toMatch(/more than 300 s from now/);
    }
    const justInside = signedByReference(payload, new Date(now.getTime() - 299 * 1000));
    expect(await webhooks.verify(payload, justInside, secret, { now })).toEqual(event);
  });

  it('refuses a delivery with a header missing or malformed, and a secret that is not one', async () => {
    const headers = signedByReference(payload);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _, ...without } = headers;
      expect(await refusal(webhooks.verify(payload, without, secret))).toMatch(/Missing/);
    }
    expect(await refusal(webhooks.verify(payload, { ...headers, 'webhook-timestamp': 'soon' }, secret))).toMatch(/Unix seconds/);
    expect(await refusal(webhooks.verify(payload, { ...headers, 'webhook-signature': 'v1,not base64!' }, secret))).toMatch(
      /No webhook-signature/,
    );
    expect(await refusal(webhooks.verify(payload, { ...headers, 'webhook-signature': 'v2,abc=' }, secret))).toMatch(/No webhook-signature/);
    expect(await refusal(webhooks.verify(payload, headers, 'whsec_'))).toMatch(/not a whsec_/);
  });

  it('answers an event recorded before 1.5.0, whose pet or order has no metadata, with metadata {}; what changed as it was', async () => {
    const pet = { id: 7, name: 'Rex', categoryId: 3, status: 'pending' };
    const order = { id: 1, petId: 7, quantity: 1, status: 'placed', complete: false };
    const before = { id: 'evt_before_metadata', createdAt: '2026-11-20T10:00:00.000Z', apiVersion: '1.4.0' };
    const recorded = [
      { ...before, type: 'pet.updated', data: { object: pet, previousAttributes: { status: 'available' } } },
      { ...before, type: 'order.placed', data: { object: order } },
      { ...before, type: 'webhook.test', data: { object: { endpointId: 'we_1' } } },
      { ...before, type: 'pet.adopted', data: { object: pet } },
    ];
    const read = [];
    for (const event of recorded) {
      const body = JSON.stringify(event);
      read.push(await webhooks.verify(body, await webhooks.sign(body, secret), secret));
    }
    expect(read).toEqual([
      { ...recorded[0], data: { object: expected.pet(pet), previousAttributes: { status: 'available' } } },
      { ...recorded[1], data: { object: expected.order(order) } },
      recorded[2],
      recorded[3], // a type newer than this SDK: its object is not known to be a Pet
    ]);
  });

  it('keeps the request that caused an event (null for the service’s own); one recorded before 1.5.0 has none', async () => {
    const caused = { ...event, request: { id: 'req-create-rex', idempotencyKey: 'rex-once' } };
    const own = { ...event, type: 'webhook.test', data: { object: { endpointId: 'we_1' } }, request: null };
    const before = { ...event, apiVersion: '1.4.0' };
    const read = [];
    for (const body of [caused, own, before].map((recorded) => JSON.stringify(recorded)))
      read.push(await webhooks.verify(body, await webhooks.sign(body, secret), secret));
    expect(read.map(({ request }) => request)).toEqual([caused.request, null, undefined]);
    expect(Object.hasOwn(read[2], 'request')).toBe(false);
  });
});
