import type { PipeTransform } from '@nestjs/common';
import { ValidationFailedException } from '../errors/api-exception.js';

/**
 * The bounds of every id, stored or sent: ids are JSON integers, exact up to 2^53-1, and the service
 * hands out no larger one. The document declares them so that clients and validators agree with it.
 */
export const ID_SCHEMA = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** A path identifier: an integer from 1 to 2^53-1, else 400 VALIDATION_FAILED. */
export class ParseIdPipe implements PipeTransform<string, number> {
  constructor(private readonly name: string) {}

  transform(value: string): number {
    const id = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : 0;
    if (id < 1 || id > Number.MAX_SAFE_INTEGER) {
      throw new ValidationFailedException(`${this.name} must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    }
    return id;
  }
}
