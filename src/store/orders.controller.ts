import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { ExperimentalOperation } from '../docs/experimental-operation.decorator.js';
import { ApiErrorResponses } from '../docs/api-error-responses.decorator.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { JSON_BODY_ERRORS } from '../validation/json-body.guard.js';
import { ID_SCHEMA, ParseIdPipe } from '../validation/parse-id.pipe.js';
import { CREATED_HEADERS, CreatesResource } from '../idempotency/creates-resource.decorator.js';
import { Idempotency } from '../idempotency/idempotency-claim.decorator.js';
import type { IdempotentRequest } from '../idempotency/idempotency.repository.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { NewOrderDto } from './dto/new-order.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';
import { RequiresScope } from '../auth/scopes.js';

@ApiTags('store')
@ApiBearerAuth('bearer')
@Controller('v1/store/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @ExperimentalOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description: 'Orders in ascending id order, optionally only those with one status, paged like `GET /pets`.',
  })
  @ApiOkResponse({ description: 'A page of orders.', type: OrderDto, isArray: true, headers: NEXT_PAGE_LINK_HEADER })
  @ApiErrorResponses({
    VALIDATION_FAILED: { reason: 'limit, status or cursor is not valid.', example: 'status must be one of placed, approved, delivered.' },
  })
  @RequiresScope('store:read')
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
    VALIDATION_FAILED: { reason: 'The body is not a valid NewOrder.', example: 'quantity must be an integer from 1 to 1000.' },
    ...JSON_BODY_ERRORS,
    PET_NOT_FOUND: 'No animal has the petId.',
  })
  @RequiresScope('store:write')
  place(@Body() newOrder: NewOrderDto, @Idempotency() idempotency?: IdempotentRequest): Promise<OrderDto> {
    return this.orders.place(newOrder, idempotency);
  }

  @Get(':orderId')
  @ExperimentalOperation({ operationId: 'getOrder', summary: 'Get an order', description: 'The order with this id.' })
  @ApiParam({ name: 'orderId', schema: ID_SCHEMA, description: 'The identifier of the order.' })
  @ApiOkResponse({ description: 'The order.', type: OrderDto })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'orderId is not an integer from 1 to 2^53-1.',
      example: 'orderId must be an integer from 1 to 9007199254740991.',
    },
    ORDER_NOT_FOUND: 'No order has this id.',
  })
  @RequiresScope('store:read')
  get(@Param('orderId', new ParseIdPipe('orderId')) orderId: number): Promise<OrderDto> {
    return this.orders.get(orderId);
  }
}
