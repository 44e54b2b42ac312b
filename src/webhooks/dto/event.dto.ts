import { LivemodeProperty } from '../../environments/livemode-property.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { DATE_TIME_PROPERTY, DATE_TIME_RULE } from '../../validation/date-time.js';
import { IsDateTime } from '../../validation/is-date-time.validator.js';
import { API_VERSION } from '../../config/api-version.js';
import { PageQuery } from '../../pagination/page-query.dto.js';
import { EVENT_TYPES } from '../../events/event-types.js';

@ApiSchema({ name: 'EventData', description: 'What the event is about.' })
export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The object exactly as the write answered it: the `Pet`, the `Order` (as it was, for a deletion).',
  })
  object: object;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'On an update (`pet.updated`, `order.updated`): the fields that changed, as they were before.',
    example: { status: 'available' },
  })
  previousAttributes?: object;
}

@ApiSchema({
  name: 'EventCause',
  description:
    'The request that caused an event: its id, which `GET /requests/{requestId}` finds in the request log, and its Idempotency-Key.',
})
export class EventRequestDto {
  @ApiProperty({ type: 'string', description: 'The X-Request-Id of the request.', example: '4f1c2d9e-0b7a-4c55-9e1f-3a2b6c8d0e17' })
  id: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Its Idempotency-Key, or null.', example: 'order-4711' })
  idempotencyKey: string | null;
}

/**
 * An event's members but `livemode`, which every answer has last: the members Event and
 * EventWithDeliveries share (the document lists a class's inherited properties first).
 */
abstract class EventMembers {
  @ApiProperty({
    type: 'string',
    description: 'Unique identifier; also the `webhook-id` of every delivery of it: the key to de-duplicate on.',
    example: 'evt_2b7Vq0kQm9XcRz1L8hNw',
  })
  id: string;

  @ApiProperty({ type: 'string', enum: [...EVENT_TYPES, 'webhook.test'], description: 'What happened.', example: 'order.placed' })
  type: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the write happened.' })
  createdAt: string;

  @ApiProperty({ type: 'string', description: 'The API version whose schemas `data.object` follows.', example: API_VERSION })
  apiVersion: string;

  @ApiPropertyOptional({
    type: EventRequestDto,
    nullable: true,
    description:
      'The request that caused the event (from API version 1.5.0; absent from older events): `GET /requests/{requestId}` finds it in ' +
      'the request log. Null for an event the service made of its own accord.',
  })
  request?: EventRequestDto | null;

  @ApiProperty({ type: EventDataDto })
  data: EventDataDto;
}

@ApiSchema({
  name: 'Event',
  description:
    'Something that happened, as sent to webhook endpoints and listed by `GET /events`. Immutable. An event carries the ' +
    'whole object as it was then, so a receiver that gets events out of order can tell an older one by its content.',
})
export class EventDto extends EventMembers {
  @LivemodeProperty("True for an event of live data, false for one of a sandbox's; a sandbox's events go to its own endpoints only.")
  livemode: boolean;
}

@ApiSchema({ name: 'WebhookAttempt', description: 'One try of a delivery.' })
export class AttemptDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  attemptedAt: string;

  @ApiPropertyOptional({ type: 'integer', description: "The receiver's answer status; absent when none came." })
  status?: number;

  @ApiProperty({ type: 'integer', description: 'How long the attempt took, in milliseconds.' })
  durationMs: number;

  @ApiPropertyOptional({ type: 'string', description: 'Why no answer counted: refused, timed out, an address not allowed.' })
  error?: string;

  @ApiPropertyOptional({ type: 'string', description: "The first KiB of the receiver's answer." })
  responseBody?: string;
}

@ApiSchema({ name: 'WebhookDelivery', description: "An event's delivery to one endpoint." })
export class DeliveryDto {
  @ApiProperty({ type: 'string' })
  endpointId: string;

  @ApiProperty({ type: 'string', enum: ['pending', 'delivered', 'failed'] })
  state: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'When a pending delivery is tried next.' })
  nextAttemptAt?: string;

  @ApiProperty({ type: AttemptDto, isArray: true })
  attempts: AttemptDto[];
}

@ApiSchema({ name: 'EventWithDeliveries', description: 'An event and its delivery to each endpoint, every attempt included.' })
export class EventWithDeliveriesDto extends EventMembers {
  @ApiProperty({ type: DeliveryDto, isArray: true })
  deliveries: DeliveryDto[];

  @LivemodeProperty("True for an event of live data, false for one of a sandbox's; a sandbox's events go to its own endpoints only.")
  livemode: boolean;
}

export class ListEventsQuery extends PageQuery {
  @ApiPropertyOptional({ type: 'string', enum: EVENT_TYPES, description: 'Only events of this type.', example: 'pet.created' })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: string;
}

@ApiSchema({ name: 'Redelivery', description: 'Which endpoint to send the event to again; all subscribed ones when absent.' })
export class RedeliverDto {
  @ApiPropertyOptional({ type: 'string', example: 'we_3q8kF0aZ1x2Yb7Lm' })
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'endpointId must be a string' })
  @MaxLength(40, { message: 'endpointId is not an endpoint' })
  endpointId?: string;
}

@ApiSchema({ name: 'Recovery', description: 'Send again every delivery to this endpoint that failed, of events since a time.' })
export class RecoverDto {
  @ApiProperty({ ...DATE_TIME_PROPERTY, description: `Events from this time on. ${DATE_TIME_RULE}`, example: '2026-11-24T00:00:00Z' })
  @IsDateTime()
  since: string;
}

@ApiSchema({ name: 'Queued', description: 'How many deliveries were queued.' })
export class QueuedDto {
  @ApiProperty({ type: 'integer' })
  queued: number;
}
