import { eventWithAddedFields } from './older-versions.js';
import type { components } from './openapi.js';

type Schemas = components['schemas'];

/**
 * The fields of a pet or an order that an update changed, with their values before it (Stripe's
 * shape): `{ status: 'available' }` for a pet that became pending; null for a field it did not have
 * (an order's first shipDate).
 */
export type PreviousAttributes<T> = { readonly [Field in keyof T]?: T[Field] | null };

/** An update's event, its `previousAttributes` typed by the fields of what changed (the document says only "an object"). */
type UpdatedEvent<Event extends { data: object }, Object> = Omit<Event, 'data'> & {
  data: Omit<Event['data'], 'previousAttributes'> & { previousAttributes?: PreviousAttributes<Object> };
};

export type PetCreatedEvent = Schemas['PetCreatedEvent'];
/** A pet changed (updatePet, or an order that holds, sells or releases it): the pet as it is now, and what changed. */
export type PetUpdatedEvent = UpdatedEvent<Schemas['PetUpdatedEvent'], Schemas['Pet']>;
/** A pet deleted: the pet as it was. */
export type PetDeletedEvent = Schemas['PetDeletedEvent'];
export type OrderPlacedEvent = Schemas['OrderPlacedEvent'];
/** An order moved (updateOrder, cancelOrder): the order as it is now, and what changed. */
export type OrderUpdatedEvent = UpdatedEvent<Schemas['OrderUpdatedEvent'], Schemas['Order']>;
export type WebhookTestEvent = Schemas['WebhookTestEvent'];
/** What a webhook endpoint receives: narrow it by `type` (`pet.created` carries a Pet, `order.updated` an Order and its previousAttributes, ...). */
export type WebhookEvent = PetCreatedEvent | PetUpdatedEvent | PetDeletedEvent | OrderPlacedEvent | OrderUpdatedEvent | WebhookTestEvent;

/** Headers as a server hands them over: a fetch `Headers`, or Node's `IncomingHttpHeaders` (Express's `req.headers`). */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (300: the specification's 5 minutes). */
  readonly toleranceSeconds?: number;
  /** The time to check the timestamp against (now). */
  readonly now?: Date;
}

export interface SignOptions {
  /** The delivery's `webhook-id` (the event's id when left out). */
  readonly id?: string;
  /** When it was signed (now). */
  readonly timestamp?: Date;
}

/** A delivery that is not provably ours: missing headers, a stale timestamp or no matching signature. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

/**
 * Checks a delivery as the Standard Webhooks specification says, then answers its event.
 * `rawBody` is the body exactly as received (a string, or the bytes: Express's `express.raw()`);
 * JSON parsed and written again no longer matches its signature. `secret` is the endpoint's
 * `whsec_…` (give both while you roll it). Each signature is checked by WebCrypto's HMAC verify,
 * which compares in constant time; throws WebhookVerificationError when none matches. An event
 * recorded before a field of its object was added (a Pet without `metadata`, from before 1.5.0)
 * is answered with the field as it is read then (`metadata: {}`).
 */
async function verify(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('The webhook-timestamp header is not a time in Unix seconds.');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError(`The webhook-timestamp is more than ${toleranceSeconds} s from now: a replay, or a clock far off.`);

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  const candidates = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => base64Bytes(entry.slice(3)))
    .filter((bytes) => bytes !== undefined);
  for (const key of await Promise.all([secret].flat().map(hmacKey)))
    for (const candidate of candidates) if (await globalThis.crypto.subtle.verify('HMAC', key, candidate, signed)) return parse(body);
  throw new WebhookVerificationError('No webhook-signature matches the body under the secret.');
}

/**
 * Signs `payload` as the service signs a delivery, answering the three headers: for a receiver's own
 * tests, so they need no running service.
 */
async function sign(payload: string, secret: string, { id, timestamp = new Date() }: SignOptions = {}): Promise<Record<string, string>> {
  const webhookId = id ?? (JSON.parse(payload) as { id?: unknown }).id;
  if (typeof webhookId !== 'string') throw new Error('Give sign an id, or a payload with a string id.');
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const mac = await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(`${webhookId}.${seconds}.${payload}`));
  return { 'webhook-id': webhookId, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${toBase64(new Uint8Array(mac))}` };
}

/** Receiving webhooks: `await webhooks.verify(rawBody, req.headers, secret)`. Needs no API key. */
export const webhooks = { verify, sign } as const;

function header(headers: WebhookHeaders, name: string): string | undefined {
  const value =
    typeof headers.get === 'function' ? headers.get(name) : (headers as Record<string, string | readonly string[] | undefined>)[name];
  return (Array.isArray(value) ? value.join(' ') : (value as string | null | undefined)) ?? undefined;
}

function hmacKey(secret: string) {
  const bytes = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!bytes?.length) throw new WebhookVerificationError('The secret is not a whsec_… signing secret.');
  return globalThis.crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

function parse(body: Uint8Array): WebhookEvent {
  try {
    return eventWithAddedFields(JSON.parse(new TextDecoder().decode(body)) as WebhookEvent);
  } catch {
    throw new WebhookVerificationError('The body is signed but is not JSON.');
  }
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(head.length + tail.length);
  bytes.set(head);
  bytes.set(tail, head.length);
  return bytes;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = globalThis.atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  return globalThis.btoa(String.fromCharCode(...bytes));
}
