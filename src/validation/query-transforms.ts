import type { TransformFnParams } from 'class-transformer';

/** A query value spelled as a plain integer becomes a number; anything else stays as sent, for the validators to reject. */
export function integerFromQuery({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** The metadata QueryObject sets on a query DTO and ApiValidationPipe reads: the properties given as `name[key]=value`. */
const QUERY_OBJECTS = 'petstore:query-objects';

/**
 * A query parameter that is an object, sent as `name[key]=value` (OpenAPI's deepObject): the
 * validation pipe gathers those into `{ key: value }` before the DTO is validated. The one form of
 * a known parameter in brackets that is not refused (metadata's filter).
 */
export function QueryObject(): PropertyDecorator {
  return (target, property) => {
    const names = (Reflect.getMetadata(QUERY_OBJECTS, target.constructor) as string[] | undefined) ?? [];
    Reflect.defineMetadata(QUERY_OBJECTS, [...names, String(property)], target.constructor);
  };
}

/** The properties of a query DTO given as `name[key]=value` (QueryObject). */
export function queryObjectsOf(metatype: object): readonly string[] {
  return (Reflect.getMetadata(QUERY_OBJECTS, metatype) as string[] | undefined) ?? [];
}
