import type { TransformFnParams } from 'class-transformer';

/** A query value spelled as a plain integer becomes a number; anything else stays as sent, for the validators to reject. */
export function integerFromQuery({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** The metadata QueryObject sets on a query DTO and ApiValidationPipe reads: the properties given as `name[key]=value`. */
const QUERY_OBJECTS = 'petstore:query-objects';

/** A query DTO's object parameter: its name, and why a value is not one (undefined when it is). */
export interface QueryObjectParameter {
  readonly name: string;
  readonly problem: (value: unknown) => string | undefined;
}

/**
 * A query parameter that is an object, sent as `name[key]=value` (OpenAPI's deepObject): the
 * validation pipe gathers those into `{ key: value }` and checks it with `problem` itself, apart
 * from class-validator, which would run its executor over the property on every listing that does
 * not use it (bench:alloc: 1 KB a listPets). The one form of a known parameter in brackets that is
 * not refused (metadata's filter).
 */
export function QueryObject(problem: (value: unknown) => string | undefined): PropertyDecorator {
  return (target, property) => {
    const parameters = (Reflect.getMetadata(QUERY_OBJECTS, target.constructor) as QueryObjectParameter[] | undefined) ?? [];
    Reflect.defineMetadata(QUERY_OBJECTS, [...parameters, { name: String(property), problem }], target.constructor);
  };
}

/** The object parameters of a query DTO (QueryObject). */
export function queryObjectsOf(metatype: object): readonly QueryObjectParameter[] {
  return (Reflect.getMetadata(QUERY_OBJECTS, metatype) as QueryObjectParameter[] | undefined) ?? [];
}
