import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, type ValidatorOptions, validateSync } from 'class-validator';
import { ValidationFailedException } from '../errors/api-exception.js';
import { validatedPropertyNames } from '../platform/class-validator-metadata.js';
import { fieldsNullMayNotRemove, nullRefused } from './merge-patch.js';
import { refuseUnreadQuery } from './query-string.js';
import { queryObjectsOf } from './query-transforms.js';

/**
 * Property names every object inherits, refused as a body's own members: class-validator's
 * whitelist looks names up in a plain object, finds these there and lets them through, and a
 * `__proto__` would set the instance's prototype. (Within a member, as metadata's keys, they are data.)
 */
const INHERITED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * Validates bodies and query strings against their DTO classes, with class-validator (and
 * class-transformer for query strings). Bodies are strict (a property the schema lacks is an
 * error); query strings are strict in value and tolerant in name (unknown parameters are dropped).
 * Either way the error names every offending field. Synchronously, and without Nest's ValidationPipe, which awaits and
 * re-checks shapes a parsed JSON object or query string never has (sparse arrays, binary values,
 * primitives in the place of objects): a body reaches here as a JSON object or not at all.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  transform(value: unknown, { type, metatype }: ArgumentMetadata): unknown {
    // Path parameters go through their own parse pipes; a route without a DTO class takes what it gets.
    if ((type !== 'body' && type !== 'query') || !metatype || UNVALIDATED.has(metatype)) return value;
    if (type === 'query') {
      refuseUnreadQuery(value);
      const query: Record<string, unknown> = { ...(value as object) };
      const objects = takeQueryObjects(metatype, query);
      refuseBracketForms(metatype, query);
      const instance = validated(metatype, query, QUERY);
      return objects === undefined ? instance : Object.assign(instance, objects);
    }
    // No body at all is an empty one: every required field is then named as missing.
    if (value === undefined) return validated(metatype, {}, BODY);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ValidationFailedException('The request body must be a JSON object.');
    }
    const inherited = Object.keys(value).filter((name) => INHERITED_NAMES.has(name));
    if (inherited.length > 0) return refuseInherited(metatype, value, inherited);
    const refused = fieldsNullMayNotRemove(metatype);
    return refused ? validatedMergePatch(metatype, value, refused) : validated(metatype, value, BODY);
  }
}

/**
 * A Merge Patch (MergePatch): a null for a field it may not remove is refused by name; a null for
 * one it may (metadata) removes it, passed on as it is, unvalidated; the rest is validated as usual.
 */
function validatedMergePatch(metatype: new () => object, value: object, refused: readonly string[]): object {
  const nulls = Object.keys(value).filter((field) => (value as Record<string, unknown>)[field] === null);
  if (nulls.length === 0) return validated(metatype, value, BODY);
  const rest = Object.fromEntries(Object.entries(value).filter(([name]) => !nulls.includes(name)));
  const refusedNulls = nulls.filter((field) => refused.includes(field));
  if (refusedNulls.length > 0) refuseNulls(metatype, rest, refusedNulls);
  return Object.assign(validated(metatype, rest, BODY), Object.fromEntries(nulls.map((field) => [field, null])));
}

/**
 * 400 naming the fields of a Merge Patch that a null would remove (MergePatch), and whatever else
 * is wrong with the rest of the body, in the order of the DTO's fields.
 */
function refuseNulls(metatype: new () => object, rest: object, nulls: readonly string[]): never {
  const problems = new Map(nulls.map((field) => [field, [nullRefused(field)]]));
  const errors = validateSync(BODY.instance(metatype, rest), { ...BODY.options, validationError: { target: false } });
  for (const error of errors) problems.set(error.property, describe([error]));
  const order = [...validatedPropertyNames(metatype)];
  const messages = [...problems].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).flatMap(([, messages]) => messages);
  throw new ValidationFailedException(`${messages.join('; ')}.`);
}

/** Types that are no DTO class, as Nest's ValidationPipe passes them by. */
const UNVALIDATED = new Set<unknown>([Object, String, Number, Boolean, Array]);

/**
 * A query parameter the DTO knows, sent in array or object form (`status[]=sold`, `status[a]=sold`,
 * as axios and qs send an array): Express's query parser keeps such a name as it is, so it would be
 * dropped as unknown and the listing answered unfiltered. The client meant to filter: 400 naming it.
 * (Names the DTO does not know stay ignored, as the 1.x contract promises.)
 */
function refuseBracketForms(metatype: new () => object, query: object): void {
  if (!Object.keys(query).some((name) => name.includes('['))) return;
  const known = validatedPropertyNames(metatype);
  const bracketed = Object.keys(query)
    .map((name) => /^([^[\]]+)\[/.exec(name)?.[1])
    .filter((name): name is string => name !== undefined && known.has(name));
  if (bracketed.length === 0) return;
  const names = [...new Set(bracketed)];
  throw new ValidationFailedException(
    `${names.map((name) => `${name} must be given once, as ${name}=value, not as ${name}[]= or ${name}[…]=`).join('; ')}.`,
  );
}

/**
 * Takes the DTO's object parameters (QueryObject) out of `query`, each gathered from its
 * `name[key]=value` members into `{ key: value }` (a plain `name=value` stays as it is) and checked
 * (400 naming what is wrong with one); undefined when the query has none. Touches `query` only when
 * it has one: a listing without them pays for nothing (bench:alloc).
 */
function takeQueryObjects(metatype: new () => object, query: Record<string, unknown>): Record<string, unknown> | undefined {
  let objects: Record<string, unknown> | undefined;
  for (const { name, problem } of queryObjectsOf(metatype)) {
    let value: unknown;
    if (Object.hasOwn(query, name)) {
      value = query[name];
      delete query[name];
    }
    const prefix = `${name}[`;
    for (const member in query) {
      if (!member.startsWith(prefix) || !member.endsWith(']')) continue;
      // No prototype: every key is a member, `__proto__` and `constructor` too. Also sent as
      // `name=value`? Then it stays that, which `problem` refuses: no part of a filter is dropped.
      value ??= Object.create(null);
      if (typeof value === 'object' && value !== null) (value as Record<string, unknown>)[member.slice(prefix.length, -1)] = query[member];
      delete query[member];
    }
    if (value === undefined) continue;
    const wrong = problem(value);
    if (wrong !== undefined) throw new ValidationFailedException(`${wrong}.`);
    (objects ??= {})[name] = value;
  }
  return objects;
}

/** How a body or a query string becomes an instance of its DTO class, and how strictly it is validated. */
interface Reading {
  readonly instance: (metatype: new () => object, value: object) => object;
  readonly options: ValidatorOptions;
}

/**
 * A body: its members as sent, on an instance of its DTO class; a property the DTO lacks is an error.
 * Not class-transformer's plainToInstance, which no body DTO needs (none transforms a member): it
 * walks every nested object, drops a member named like a function every object has (`toString`,
 * `__proto__`: metadata keys like any other) and fails on one named `constructor` with a 500
 * (typestack/class-transformer#1462). The names every object inherits are refused at the top before
 * this (INHERITED_NAMES), so none reaches a setter.
 */
const BODY: Reading = {
  instance: (metatype, value) => Object.assign(new metatype(), value),
  options: { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, stopAtFirstError: true },
};
/** A query string: its values are text that class-transformer converts (`@Transform`); unknown parameters are dropped. */
const QUERY: Reading = {
  instance: (metatype, value) => plainToInstance(metatype, value),
  options: { whitelist: true, forbidNonWhitelisted: false, stopAtFirstError: true },
};

/** `value` as an instance of its DTO class, or the 400 that names what is wrong with it. */
function validated(metatype: new () => object, value: object, { instance: instanceOf, options }: Reading): object {
  const instance = instanceOf(metatype, value);
  const errors = validateSync(instance, { ...options, validationError: { target: false } });
  if (errors.length > 0) throw toValidationFailed(errors);
  return instance;
}

/** 400 naming the inherited names, and whatever else is wrong with the rest of the body. */
function refuseInherited(metatype: new () => object, value: object, inherited: string[]): never {
  const notAllowed = inherited.map((name) => `${name} is not allowed`).join('; ');
  const rest = Object.fromEntries(Object.entries(value).filter(([name]) => !INHERITED_NAMES.has(name)));
  try {
    validated(metatype, rest, BODY);
  } catch (error) {
    if (error instanceof ValidationFailedException) throw new ValidationFailedException(`${notAllowed}; ${error.message}`);
    throw error;
  }
  throw new ValidationFailedException(`${notAllowed}.`);
}

function toValidationFailed(errors: ValidationError[]): ValidationFailedException {
  return new ValidationFailedException(`${describe(errors).join('; ')}.`);
}

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const messages = 'whitelistValidation' in constraints ? [`${path} is not allowed`] : Object.values(constraints);
    return [...messages, ...describe(error.children ?? [], path)];
  });
}
