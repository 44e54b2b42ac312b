import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { ValidationFailedException } from './api-exception.js';

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

  private readonly query = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    stopAtFirstError: true,
    exceptionFactory: toValidationFailed,
  });

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') {
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new ValidationFailedException('The request body must be a JSON object.');
      }
      return this.body.transform(value, metadata);
    }
    if (metadata.type === 'query') return this.query.transform(value, metadata);
    // Path parameters go through their own parse pipes.
    return value;
  }
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
