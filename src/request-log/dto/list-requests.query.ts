import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQuery } from '../../pagination/page-query.dto.js';

export class ListRequestsQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'string',
    pattern: '^[1-5](\\d\\d|xx)$',
    description: 'Only requests answered with this status (`404`), or with one of its class (`4xx`, `5xx`).',
    example: '4xx',
  })
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @Matches(/^[1-5](\d\d|xx)$/, { message: 'status must be a status such as 404, or a class such as 4xx' })
  status?: string;

  @ApiPropertyOptional({
    type: 'string',
    description: 'Only requests that reached this operation (its operationId).',
    example: 'createPet',
  })
  @IsOptional()
  @IsString({ message: 'operation must be given once' })
  @Matches(/^[A-Za-z]{1,64}$/, { message: 'operation must be an operationId, such as createPet' })
  operation?: string;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 255,
    description: 'Only requests sent with this Idempotency-Key.',
    example: 'order-4711',
  })
  @IsOptional()
  @IsString({ message: 'idempotencyKey must be given once' })
  @MaxLength(255, { message: 'idempotencyKey is at most 255 characters' })
  idempotencyKey?: string;
}
