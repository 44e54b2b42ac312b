import type { PipeTransform } from '@nestjs/common';
import { ValidationFailedException } from '../errors/api-exception.js';

const INT64_MAX = 9_223_372_036_854_775_807n;

/**
 * A path identifier: a positive integer in the int64 range, else 400. It stays a bigint because
 * int64 is wider than a JS number; the services know no stored id exceeds 2^53-1.
 */
export class ParseIdPipe implements PipeTransform<string, bigint> {
  constructor(private readonly name: string) {}

  transform(value: string): bigint {
    const id = /^[1-9][0-9]{0,18}$/.test(value) ? BigInt(value) : 0n;
    if (id < 1n || id > INT64_MAX) {
      throw new ValidationFailedException(`${this.name} must be a positive integer of at most 2^63-1.`);
    }
    return id;
  }
}

/** The largest id the service ever hands out: ids are JSON integers, exact up to 2^53-1. */
export const MAX_STORED_ID = BigInt(Number.MAX_SAFE_INTEGER);
