import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../http/api-error-responses.decorator.js';

@ApiTags('store')
@ApiBearerAuth('bearer')
@Controller('v1/store/orders')
export class OrdersController {
  @Get()
  @ApiOperation({ operationId: 'listOrders', summary: 'List orders' })
  @ApiOkResponse({ description: 'The orders.', schema: { type: 'array', items: { type: 'object' } } })
  @ApiErrorResponses({})
  list(): unknown[] {
    // Orders cannot be placed yet (the store group's design is its own issue), so there are none.
    return [];
  }
}
