import { LivemodeProperty } from '../../environments/livemode-property.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';
import { EVENT_TYPES } from '../../events/event-types.js';
import { ALL_EVENTS } from '../../webhook-delivery/subscriptions.js';
import type { MadeEndpoint } from '../../webhook-delivery/webhook-endpoints.repository.js';

const SUBSCRIBABLE = [...EVENT_TYPES, ALL_EVENTS];
const EVENTS_MESSAGE = `events must be 1 to 20 distinct values from ${SUBSCRIBABLE.join(', ')}`;

const URL_PROPERTY = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description:
    'Where events are POSTed: an `https` URL (plain `http` only where the operator allows it) whose host resolves to a public ' +
    'address; checked again at every attempt, against the address connected to.',
  example: 'https://fulfilment.example.com/hooks/petstore',
} as const;

const EVENTS_PROPERTY = {
  type: 'array',
  items: { type: 'string', enum: SUBSCRIBABLE },
  minItems: 1,
  maxItems: 20,
  uniqueItems: true,
  description: 'The event types sent to this endpoint; `*` for all of them, those added later included.',
  example: ['order.placed'],
} as const;

const DESCRIPTION_PROPERTY = { type: 'string', maxLength: 255, description: 'What the endpoint is for.', example: 'Fulfilment' } as const;

@ApiSchema({ name: 'NewWebhookEndpoint', description: 'An endpoint to send events to.' })
export class NewWebhookEndpointDto {
  @ApiProperty(URL_PROPERTY)
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url: string;

  @ApiProperty(EVENTS_PROPERTY)
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayMinSize(1, { message: EVENTS_MESSAGE })
  @ArrayMaxSize(20, { message: EVENTS_MESSAGE })
  @ArrayUnique({ message: EVENTS_MESSAGE })
  @IsIn(SUBSCRIBABLE, { each: true, message: EVENTS_MESSAGE })
  events: string[];

  @ApiPropertyOptional(DESCRIPTION_PROPERTY)
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'description must be a string of at most 255 characters' })
  @MaxLength(255, { message: 'description must be a string of at most 255 characters' })
  description?: string;
}

/**
 * An endpoint's members but `livemode`, which every answer has last: the members WebhookEndpoint and
 * NewWebhookEndpointSecret share (the document lists a class's inherited properties first).
 */
abstract class WebhookEndpointMembers {
  @ApiProperty({ type: 'string', description: 'Unique identifier, assigned on creation.', example: 'we_3q8kF0aZ1x2Yb7Lm' })
  id: string;

  @ApiProperty(URL_PROPERTY)
  url: string;

  @ApiProperty(EVENTS_PROPERTY)
  events: string[];

  @ApiPropertyOptional(DESCRIPTION_PROPERTY)
  description?: string;

  @ApiProperty({ type: 'boolean', description: 'Whether events are sent to it; a disabled endpoint gets none until enabled.' })
  enabled: boolean;

  @ApiPropertyOptional({
    type: 'string',
    description: 'Why the service disabled it (`410 Gone`, or every delivery failing for the whole retry schedule).',
  })
  disabledReason?: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was made; it gets the events of writes from then on.' })
  createdAt: string;
}

@ApiSchema({ name: 'WebhookEndpoint', description: 'An endpoint events are sent to.' })
export class WebhookEndpointDto extends WebhookEndpointMembers {
  @LivemodeProperty('True for a live endpoint, false for one of a sandbox: it receives the events of its own environment only.')
  livemode: boolean;

  static from(endpoint: MadeEndpoint): WebhookEndpointDto {
    return {
      id: endpoint.id,
      url: endpoint.url,
      events: [...endpoint.events],
      ...(endpoint.description === null ? {} : { description: endpoint.description }),
      enabled: endpoint.enabled,
      ...(endpoint.disabledReason === null ? {} : { disabledReason: endpoint.disabledReason }),
      createdAt: endpoint.createdAt.toISOString(),
      livemode: endpoint.environment.livemode,
    };
  }
}

const SECRET_PROPERTY = {
  type: 'string',
  description: 'The signing secret (Standard Webhooks: `whsec_` and base64). Shown only in this answer: keep it.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
} as const;

@ApiSchema({ name: 'NewWebhookEndpointSecret', description: 'A new endpoint, with its signing secret: the one time it is shown.' })
export class CreatedWebhookEndpointDto extends WebhookEndpointMembers {
  @ApiProperty(SECRET_PROPERTY)
  secret: string;

  @LivemodeProperty('True for a live endpoint, false for one of a sandbox: it receives the events of its own environment only.')
  livemode: boolean;
}

@ApiSchema({
  name: 'WebhookSecret',
  description: 'A new signing secret; the previous one keeps signing beside it until `previousSecretExpiresAt`.',
})
export class RotatedSecretDto {
  @ApiProperty(SECRET_PROPERTY)
  secret: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'Until when deliveries carry a signature under the previous secret too.',
  })
  previousSecretExpiresAt: string;
}
