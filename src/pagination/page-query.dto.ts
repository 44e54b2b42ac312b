import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { integerFromQuery } from '../validation/query-transforms.js';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

/** The paging half of a listing's query (the webhook endpoints' as it is); a listing's DTO adds its filters. */
export class PageQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Maximum number of items returned.',
    example: 20,
  })
  @Transform(integerFromQuery)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(100, { message: LIMIT_MESSAGE })
  limit: number = 20;

  // No example: Swagger UI's Try it out and contract testers send examples, and a cursor filled in
  // would leave out the first item, and be a 400 under any other filter. Only a Link header makes one.
  @ApiPropertyOptional({
    type: 'string',
    maxLength: 512,
    description: 'Opaque position in the listing. Do not build it: follow the `Link` header with `rel="next"`.',
  })
  @IsOptional()
  @IsString({ message: 'cursor must be given once' })
  @MaxLength(512, { message: 'cursor is not valid for this listing' })
  cursor?: string;
}
