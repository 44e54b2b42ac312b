import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from './api-exception.js';

@ApiSchema({ name: 'Error', description: 'Every error response, from every layer, has this shape.' })
export class ErrorDto {
  @ApiProperty({ enum: ERROR_CODES, description: 'Machine-readable error code.', example: 'VALIDATION_FAILED' })
  code: ErrorCode;

  @ApiProperty({
    type: 'string',
    description: 'Human-readable description.',
    example: 'name must be a string of 1 to 255 characters, not only white space.',
  })
  message: string;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'The HTTP status code of the response.', example: 400 })
  status: number;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 128,
    description: "The request's id, as in its X-Request-Id header: quote it when you ask for support.",
    example: 'f3b2c1de-8a4f-4c36-9a51-2d7e0c9b6a10',
  })
  requestId?: string;
}
