import { Controller, Get, Header, HttpCode, HttpStatus, Param, Patch, Post } from '@nestjs/common';
import { ValidBody, ValidQuery } from '../validation/validated.js';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { ChangesConditionally, ETAG_HEADER, RequestPreconditions, TaggedRead } from '../http/preconditions.decorators.js';
import type { Preconditions } from '../http/entity-tag.js';
import { ExperimentalOperation } from '../openapi/experimental-operation.decorator.js';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator.js';
import { NEXT_PAGE_LINK_HEADER, type Page } from '../pagination/page.js';
import { ACCEPT_PATCH, ACCEPT_PATCH_HEADER, JSON_BODY_ERRORS, MERGE_PATCH_TYPES } from '../http/json-body.js';
import { ID_SCHEMA, ParseIdPipe } from '../validation/parse-id.pipe.js';
import { ChangesOnce, CREATED_HEADERS, CreatesResource, REPLAYED_HEADER } from '../idempotency/creates-resource.decorator.js';
import { Write, type WriteRequest } from '../idempotency/write-request.js';
import { Changed, Created } from '../http/answers.js';
import { ResourceShape } from '../validation/resource-shape.js';
import { ListOrdersQuery } from './dto/list-orders.query.js';
import { ORDER } from './dto/order-fields.js';
import { NewOrderDto } from './dto/new-order.dto.js';
import { OrderPatchDto } from './dto/order-patch.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';
import { changesExisting, RequiresScope } from '../auth/requires-scope.js';
import { InEnvironment } from '../auth/api-key.principal.js';
import type { Environment } from '../environments/environment.js';

const ORDER_ID_PARAMETER = { name: 'orderId', schema: ID_SCHEMA, description: 'The identifier of the order.', example: 1 };

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
  @ApiOkResponse({ description: 'A page of orders.', type: OrderDto, isArray: true, headers: { ...NEXT_PAGE_LINK_HEADER, ...ETAG_HEADER } })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'limit, status or cursor is not valid, or given as an array or object (`status[]=placed`).',
      example: 'status must be one of placed, approved, delivered, cancelled.',
    },
  })
  @RequiresScope('store:read')
  list(@InEnvironment() environment: Environment, @ValidQuery() query: ListOrdersQuery): Promise<Page<OrderDto>> {
    return this.orders.list(environment, query);
  }

  @Post()
  @CreatesResource()
  @ExperimentalOperation({
    operationId: 'placeOrder',
    summary: 'Place an order',
    description:
      'The animal must exist and be available. A placed or approved order holds it (`pending`) until the order is ' +
      'delivered (the animal is `sold`) or cancelled (`available` again); an order placed delivered sells it at once. ' +
      'Of orders placed at once for one animal, exactly one is placed. Told by an `order.placed` event and a ' +
      '`pet.updated` one.',
  })
  @ApiCreatedResponse({ description: 'The placed order.', type: OrderDto, headers: { ...CREATED_HEADERS, ...ETAG_HEADER } })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'The body is not a valid NewOrder. Or If-Match or If-None-Match was sent: a create takes neither.',
      example: 'quantity must be an integer from 1 to 1000.',
    },
    ...JSON_BODY_ERRORS,
    PET_NOT_FOUND: 'No animal has the petId.',
    PET_NOT_AVAILABLE: 'The animal is not available: an order holds it, or it is sold.',
  })
  @RequiresScope('store:write')
  async place(@ValidBody() newOrder: NewOrderDto, @Write() write: WriteRequest): Promise<Created<OrderDto>> {
    return new Created(await this.orders.place(newOrder, write), write.replayed);
  }

  @Get(':orderId')
  @Header('Accept-Patch', ACCEPT_PATCH['Accept-Patch'])
  @ExperimentalOperation({ operationId: 'getOrder', summary: 'Get an order', description: 'The order with this id.' })
  @ApiParam(ORDER_ID_PARAMETER)
  @ApiOkResponse({ description: 'The order.', type: OrderDto, headers: { ...ETAG_HEADER, ...ACCEPT_PATCH_HEADER } })
  @TaggedRead()
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'orderId is not an integer from 1 to 2^53-1.',
      example: 'orderId must be an integer from 1 to 9007199254740991.',
    },
    ORDER_NOT_FOUND: 'No order has this id.',
  })
  @RequiresScope('store:read')
  get(@InEnvironment() environment: Environment, @Param('orderId', new ParseIdPipe('orderId')) orderId: number): Promise<OrderDto> {
    return this.orders.get(environment, orderId);
  }

  @Patch(':orderId')
  @Header('Accept-Patch', ACCEPT_PATCH['Accept-Patch'])
  @ChangesOnce()
  @ChangesConditionally()
  @ExperimentalOperation({
    operationId: 'updateOrder',
    summary: 'Move an order',
    description:
      `A JSON Merge Patch (RFC 7396; \`application/merge-patch+json\` or \`application/json\`) of ${ResourceShape.named(ORDER.patched)}: ` +
      'placed to approved, approved to delivered, which sells the animal and completes the order. Delivered and ' +
      "cancelled are final, their status and shipDate too; their metadata, your own references and not the order's terms, " +
      'still merges. Cancel with `POST /store/orders/{orderId}/cancel`. With `If-Match`, the change applies only ' +
      'to the representation named. Told by an `order.updated` event (and a `pet.updated` one) with their `previousAttributes`.',
  })
  @ApiParam(ORDER_ID_PARAMETER)
  @ApiConsumes(...MERGE_PATCH_TYPES)
  @ApiBody({ type: OrderPatchDto, examples: { approve: { value: { status: 'approved' } }, deliver: { value: { status: 'delivered' } } } })
  @ApiOkResponse({
    description: 'The order as moved.',
    type: OrderDto,
    headers: { ...ETAG_HEADER, ...ACCEPT_PATCH_HEADER, ...REPLAYED_HEADER },
  })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason:
        'A field is unknown, null or not valid, or orderId is not an id. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'status must be one of placed, approved, delivered, cancelled.',
    },
    ...JSON_BODY_ERRORS,
    ORDER_NOT_FOUND: 'No order has this id.',
    INVALID_TRANSITION: {
      reason:
        'The order cannot move there from where it stands (the message names the moves it can make), or it is delivered or ' +
        'cancelled, which are final: its shipDate changes no more (its metadata does).',
      example: 'The order 7 cannot move from placed to delivered: from placed it moves to approved.',
    },
  })
  @RequiresScope(...changesExisting('store'))
  async update(
    @Param('orderId', new ParseIdPipe('orderId')) orderId: number,
    @ValidBody() patch: OrderPatchDto,
    @RequestPreconditions() preconditions: Preconditions,
    @Write() write: WriteRequest,
  ): Promise<Changed<OrderDto>> {
    return new Changed(await this.orders.update(orderId, patch, preconditions, write), write.replayed);
  }

  @Post(':orderId/cancel')
  @HttpCode(HttpStatus.OK)
  @ChangesOnce()
  @ChangesConditionally()
  @ExperimentalOperation({
    operationId: 'cancelOrder',
    summary: 'Cancel an order',
    description:
      'Cancels a placed or approved order: the animal it holds is available again. Delivered and cancelled orders are ' +
      'final. With `If-Match`, only the representation named is cancelled. Told by an `order.updated` event (and a ' +
      '`pet.updated` one). Takes no body.',
  })
  @ApiParam(ORDER_ID_PARAMETER)
  @ApiOkResponse({ description: 'The cancelled order.', type: OrderDto, headers: { ...ETAG_HEADER, ...REPLAYED_HEADER } })
  @ApiErrorResponses({
    VALIDATION_FAILED: {
      reason: 'orderId is not an integer from 1 to 2^53-1. Or If-Match or If-None-Match is not `*` or a list of entity tags.',
      example: 'orderId must be an integer from 1 to 9007199254740991.',
    },
    // It takes no body, but one sent is read as any JSON body is.
    ...JSON_BODY_ERRORS,
    ORDER_NOT_FOUND: 'No order has this id.',
    INVALID_TRANSITION: {
      reason: 'The order is delivered or cancelled already.',
      example: 'The order 7 cannot move from delivered to cancelled: delivered is final: it moves no more.',
    },
  })
  @RequiresScope(...changesExisting('store'))
  async cancel(
    @Param('orderId', new ParseIdPipe('orderId')) orderId: number,
    @RequestPreconditions() preconditions: Preconditions,
    // Cancel takes no body: one sent changes nothing, so it does not make a retry another request.
    @Write({ takesBody: false }) write: WriteRequest,
  ): Promise<Changed<OrderDto>> {
    return new Changed(await this.orders.cancel(orderId, preconditions, write), write.replayed);
  }
}
