import { ApiProperty, ApiSchema } from '@nestjs/swagger';

const COUNT = { type: 'integer', format: 'int64', minimum: 0 } as const;

@ApiSchema({ name: 'Inventory', description: 'How many animals have each status; every status is always present.' })
export class InventoryDto {
  @ApiProperty({ ...COUNT, example: 12 })
  available: number;

  @ApiProperty({ ...COUNT, example: 3 })
  pending: number;

  @ApiProperty({ ...COUNT, example: 40 })
  sold: number;
}
