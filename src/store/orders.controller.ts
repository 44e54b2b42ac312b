import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { ExperimentalOperation } from '../docs/experimental-operation.decorator.js';
import { ApiErrorResponses } from '../http/api-error-responses.decorator.js';
import { ListsPages, NEXT_PAGE_LINK_HEADER, type Page } from '../http/pagination/page.js';
import { ParseIdPipe } from '../http/parse-id.pipe.js';
import { CREATED_HEADERS, CreatesResource } from '../idempotency/creates-resource.decorator.js';
import { Idempotency } from '../idempotency/idempotency-claim.decorator.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.store.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { NewOrderDto } from './dto/new-order.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';

@ApiTags('store')
@ApiBearerAuth('bearer')
@Controller('v1/store/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @ListsPages()
  @ExperimentalOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description: 'Orders in ascending id order, optionally only those with one status, paged like `GET /pets`.',
  })
  @ApiOkResponse({ description: 'A page of orders.', type: OrderDto, isArray: true, headers: NEXT_PAGE_LINK_HEADER })
  @ApiErrorResponses({ 400: 'limit, status or cursor is not valid (VALIDATION_FAILED).' })
  list(@Query() query: ListOrdersQuery): Promise<Page<OrderDto>> {
    return this.orders.list(query);
  }

  @Post()
  @CreatesResource()
  @ExperimentalOperation({
    operationId: 'placeOrder',
    summary: 'Place an order',
    description: "The animal must exist. Placing an order does not change the animal's status.",
  })
  @ApiCreatedResponse({ description: 'The placed order.', type: OrderDto, headers: CREATED_HEADERS })
  @ApiErrorResponses({
    400: 'The body is not a valid NewOrder (VALIDATION_FAILED), not JSON (MALFORMED_JSON), or not sent as application/json (UNSUPPORTED_MEDIA_TYPE).',
    404: 'No animal has the petId (PET_NOT_FOUND).',
    413: 'The body is larger than 16 KiB (PAYLOAD_TOO_LARGE).',
  })
  place(@Body() newOrder: NewOrderDto, @Idempotency() claim?: IdempotencyClaim): Promise<OrderDto> {
    return this.orders.place(newOrder, claim);
  }

  @Get(':orderId')
  @ExperimentalOperation({ operationId: 'getOrder', summary: 'Get an order' })
  @ApiParam({ name: 'orderId', schema: { type: 'integer', format: 'int64', minimum: 1 }, description: 'The identifier of the order.' })
  @ApiOkResponse({ description: 'The order.', type: OrderDto })
  @ApiErrorResponses({
    400: 'orderId is not a positive int64 (VALIDATION_FAILED).',
    404: 'No order has this id (ORDER_NOT_FOUND).',
  })
  get(@Param('orderId', new ParseIdPipe('orderId')) orderId: bigint): Promise<OrderDto> {
    return this.orders.get(orderId);
  }
}
