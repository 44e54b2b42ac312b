import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { ValidationFailedException } from '../errors/api-exception.js';

/**
 * Property names every object inherits. class-validator's whitelist looks names up in a plain
 * object, finds these there and lets them through, and class-transformer drops some of them, so
 * a body carrying one was accepted; they are checked here instead.
 */
const INHERITED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * Validates bodies and query strings against their DTO classes. Bodies are strict (a property the
 * schema lacks is an error); query strings are strict in value and tolerant in name (unknown
 * parameters are dropped). Either way the error names every offending field.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly body = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    exceptionFactory: toValidationFailed,
  });

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') {
      if (value === undefined) return this.body.transform(value, metadata);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ValidationFailedException('The request body must be a JSON object.');
      }
      const inherited = Object.keys(value).filter((name) => INHERITED_NAMES.has(name));
      return inherited.length === 0 ? this.body.transform(value, metadata) : this.refuseInherited(value, inherited, metadata);
    }
    if (metadata.type === 'query' && metadata.metatype) return validateQuery(metadata.metatype, value);
    // Path parameters go through their own parse pipes.
    return value;
  }

  /** 400 naming the inherited names, and whatever else is wrong with the rest of the body. */
  private async refuseInherited(value: object, inherited: string[], metadata: ArgumentMetadata): Promise<never> {
    const notAllowed = inherited.map((name) => `${name} is not allowed`).join('; ');
    const rest = Object.fromEntries(Object.entries(value).filter(([name]) => !INHERITED_NAMES.has(name)));
    try {
      await this.body.transform(rest, metadata);
    } catch (error) {
      if (error instanceof ValidationFailedException) throw new ValidationFailedException(`${notAllowed}; ${error.message}`);
      throw error;
    }
    throw new ValidationFailedException(`${notAllowed}.`);
  }
}

/**
 * A query string (flat: strings, or arrays of them for a repeated name) as an instance of its DTO
 * class, its unknown parameters dropped. Synchronously, on every listing: Nest's ValidationPipe
 * awaits and re-checks the shapes a body can take, which a parsed query string never has.
 */
function validateQuery(metatype: new () => object, value: unknown): object {
  const query = plainToInstance(metatype, { ...(value as object) });
  const errors = validateSync(query, {
    whitelist: true,
    forbidNonWhitelisted: false,
    stopAtFirstError: true,
    validationError: { target: false },
  });
  if (errors.length > 0) throw toValidationFailed(errors);
  return query;
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
