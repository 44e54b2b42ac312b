import { LivemodeProperty } from '../../environments/livemode-property.js';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Environment } from '../../environments/environment.js';
import { ERROR_CODES, type ErrorCode } from '../../errors/api-exception.js';
import { redactKeys } from '../../logging/redact-url.js';
import type { StoredRequest } from '../request-log.repository.js';

@ApiSchema({ name: 'AnsweredError', description: 'The error a request was answered with: its code and message, as the Error said them.' })
export class AnsweredErrorDto {
  @ApiProperty({ enum: ERROR_CODES, enumName: 'ErrorCode', example: 'VALIDATION_FAILED' })
  code: ErrorCode;

  @ApiProperty({ type: 'string', example: 'categoryId must be an integer from 1 to 9007199254740991.' })
  message: string;
}

@ApiSchema({
  name: 'RequestLogEntry',
  description:
    'A request your API key made, as the service answered it: every change (POST, PATCH, DELETE) and every failure, and ' +
    'the successful reads where the operator keeps those too. Never its body or a credential. A key’s rate-limited answers ' +
    '(429) are one entry a minute, the first’s, whose `count` says how many there were.',
})
export class RequestEntryDto {
  @ApiProperty({
    type: 'string',
    description: 'The request id: its `X-Request-Id`, as answered (yours, when you sent one).',
    example: '4f1c2d9e-0b7a-4c55-9e1f-3a2b6c8d0e17',
  })
  id: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When the request arrived, in UTC with milliseconds.',
    example: '2026-11-26T10:00:00.000Z',
  })
  createdAt: string;

  @ApiProperty({ type: 'string', example: 'POST' })
  method: string;

  @ApiProperty({
    type: 'string',
    description:
      'The path and query as sent, a query value only under the operation’s own parameters (every other value `[redacted]`), ' +
      'and text shaped like an API key `psk_[redacted]`.',
    example: '/v1/pets',
  })
  path: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The operationId of the operation the request reached; null when it reached none (404 ROUTE_NOT_FOUND).',
    example: 'createPet',
  })
  operation: string | null;

  @ApiProperty({ type: 'integer', description: 'The HTTP status answered.', example: 400 })
  status: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How long the answer took, in milliseconds.', example: 12 })
  durationMs: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'The `Idempotency-Key` sent, or null.', example: 'order-4711' })
  idempotencyKey: string | null;

  @ApiProperty({
    type: 'boolean',
    description: 'Whether the answer was the one stored for an earlier request with the same Idempotency-Key.',
  })
  replayed: boolean;

  @ApiProperty({ type: AnsweredErrorDto, nullable: true, description: 'The error answered, or null for a success.' })
  error: AnsweredErrorDto | null;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    default: 1,
    description:
      'How many requests the entry stands for: 1, but for a rate-limited answer (429), every one your key was refused in the ' +
      'minute from this one (their own ids are not kept).',
    example: 1,
  })
  count: number;

  @LivemodeProperty('Whether the request was made in live mode (true) or in a sandbox (false), as your key is.')
  livemode: boolean;

  /** An entry as answered; its text redacted again, for the entries 1.5.0 wrote before it redacted keys everywhere. */
  static from(entry: StoredRequest): RequestEntryDto {
    return {
      id: redactKeys(entry.requestId),
      createdAt: entry.createdAt.toISOString(),
      method: entry.method,
      path: redactKeys(entry.path),
      operation: entry.operation,
      status: entry.status,
      durationMs: entry.durationMs,
      idempotencyKey: redactKeys(entry.idempotencyKey),
      replayed: entry.replayed,
      error: entry.errorCode === null ? null : { code: entry.errorCode as ErrorCode, message: redactKeys(entry.errorMessage ?? '') },
      count: entry.count,
      livemode: Environment.of(entry.environment).livemode,
    };
  }
}
