import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { integerFromQuery } from '../validation/query-transforms.js';
import { encodeCursor, type ListFilter } from './cursor.js';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100';

/**
 * The document's cursor of a listing: its example is a real cursor of that listing with the
 * example filter, so that Swagger UI's Try it out and contract testers, which send the examples,
 * get a page (a cursor of another listing or filter is a 400). A listing's DTO declares its own.
 */
export function cursorProperty(listing: string, exampleFilter: ListFilter): ApiPropertyOptions {
  return {
    type: 'string',
    maxLength: 512,
    description: 'Opaque position in the listing. Do not build it: follow the `Link` header with `rel="next"`.',
    example: encodeCursor(1, listing, exampleFilter),
  };
}

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

  @ApiPropertyOptional(cursorProperty('webhook-endpoints', {}))
  @IsOptional()
  @IsString({ message: 'cursor must be given once' })
  @MaxLength(512, { message: 'cursor is not valid for this listing' })
  cursor?: string;
}
