import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '../../errors/api-exception.js';
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
    'the successful reads where the operator keeps those too. Never its body or a credential.',
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
    description: 'The path and query as sent, the values of credential-like query parameters (`api_key`, `access_token`, …) `[redacted]`.',
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

  static from(entry: StoredRequest): RequestEntryDto {
    return {
      id: entry.requestId,
      createdAt: entry.createdAt.toISOString(),
      method: entry.method,
      path: entry.path,
      operation: entry.operation,
      status: entry.status,
      durationMs: entry.durationMs,
      idempotencyKey: entry.idempotencyKey,
      replayed: entry.replayed,
      error: entry.errorCode === null ? null : { code: entry.errorCode as ErrorCode, message: entry.errorMessage ?? '' },
    };
  }
}
