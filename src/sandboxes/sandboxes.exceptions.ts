import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/** No sandbox in use has the id: an unknown, a deleted and an expired one are all not found. */
export class SandboxNotFoundException extends ApiException {
  constructor(id: string) {
    super(HttpStatus.NOT_FOUND, 'SANDBOX_NOT_FOUND', `No sandbox has id ${JSON.stringify(id.slice(0, 64))}.`);
  }
}

/** SANDBOXES_MAX are in use already: one must be deleted, or expire, before another is made. */
export class SandboxLimitReachedException extends ApiException {
  constructor(max: number) {
    super(
      HttpStatus.CONFLICT,
      'SANDBOX_LIMIT_REACHED',
      max === 0
        ? 'This service makes no sandboxes: its operator allows none (SANDBOXES_MAX=0).'
        : `This service allows ${max} sandboxes at once, and ${max} are in use: delete one (or let one expire) first.`,
    );
  }
}
