import { ADDED_FIELDS, EVENT_OBJECTS } from './added-fields.js';

/** A schema that gained fields after a release of this major version (a Pet, an Order). */
export type SchemaWithAddedFields = keyof typeof ADDED_FIELDS;

/**
 * `object` (a Pet or an Order as parsed) with each field its schema gained since an older version
 * that it lacks set to what it is read as (`metadata: {}`), in place: an answer of an older server,
 * or an event recorded before the field (events keep their apiVersion), is then typed truly.
 */
export function withAddedFields<T>(schema: SchemaWithAddedFields, object: T): T {
  if (typeof object !== 'object' || object === null) return object;
  for (const [field, absent] of Object.entries(ADDED_FIELDS[schema]))
    if (!Object.hasOwn(object, field)) (object as Record<string, unknown>)[field] = absent();
  return object;
}

/** An event with its `data.object` read as withAddedFields reads a Pet or an Order, by the event's `type`. */
export function eventWithAddedFields<T>(event: T): T {
  const { type, data } = (event ?? {}) as { type?: unknown; data?: { object?: unknown } };
  const schema = typeof type === 'string' && Object.hasOwn(EVENT_OBJECTS, type) ? EVENT_OBJECTS[type] : undefined;
  if (schema !== undefined && Object.hasOwn(ADDED_FIELDS, schema)) withAddedFields(schema as SchemaWithAddedFields, data?.object);
  return event;
}
