import { LivemodeProperty } from '../../environments/livemode-property.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';
import { IsName } from '../../validation/is-name.validator.js';
import type { StoredSandbox } from '../sandboxes.repository.js';

export const SANDBOX_NAME_MAX = 100;
/** A sandbox lives 24 hours unless asked otherwise; at least a minute, at most 30 days (DECISIONS "Sandboxes"). */
export const DEFAULT_EXPIRES_IN = 86_400;
export const MIN_EXPIRES_IN = 60;
export const MAX_EXPIRES_IN = 2_592_000;
const EXPIRES_IN_MESSAGE = `expiresIn must be an integer number of seconds from ${MIN_EXPIRES_IN} to ${MAX_EXPIRES_IN}`;

const ID_PROPERTY = {
  type: 'string',
  description: 'Unique identifier, assigned on creation (`sbx_…`).',
  example: 'sbx_Q3v8kF0aZ1x2Yb7LmN4pRw',
} as const;
const NAME_PROPERTY = {
  type: 'string',
  minLength: 1,
  maxLength: SANDBOX_NAME_MAX,
  description: 'What the sandbox is for: a label, 1 to 100 characters, not only white space.',
  example: 'ci-run-1234',
} as const;

@ApiSchema({ name: 'NewSandbox', description: 'A sandbox to make.' })
export class NewSandboxDto {
  @ApiProperty(NAME_PROPERTY)
  @IsName(1, SANDBOX_NAME_MAX)
  name: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_EXPIRES_IN,
    maximum: MAX_EXPIRES_IN,
    default: DEFAULT_EXPIRES_IN,
    description:
      'Seconds until the sandbox expires by itself: its keys stop then, and its data is removed. A minute to 30 days; 24 hours when not given.',
    example: 3600,
  })
  // Left out, the default; null is no number of seconds.
  @ValidateIf((_, value) => value !== undefined)
  @IsInt({ message: EXPIRES_IN_MESSAGE })
  @Min(MIN_EXPIRES_IN, { message: EXPIRES_IN_MESSAGE })
  @Max(MAX_EXPIRES_IN, { message: EXPIRES_IN_MESSAGE })
  expiresIn?: number;
}

@ApiSchema({
  name: 'Sandbox',
  description:
    'An environment of its own: its pets, orders, webhook endpoints, events, request log and keys, none of which live keys see, ' +
    'nor it theirs. Its keys (`psk_test_…`) act in it alone; its objects say `livemode: false`.',
})
export class SandboxDto {
  @ApiProperty(ID_PROPERTY)
  id: string;

  @ApiProperty(NAME_PROPERTY)
  name: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was made.', example: '2026-12-02T09:30:00.000Z' })
  createdAt: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'When it expires: its keys stop, and it and its data are removed.',
    example: '2026-12-03T09:30:00.000Z',
  })
  expiresAt: string;

  @LivemodeProperty('Always true: a sandbox is managed from live, with a live key.')
  livemode: boolean;

  static from(sandbox: StoredSandbox): SandboxDto {
    return {
      id: sandbox.id,
      name: sandbox.name,
      createdAt: sandbox.createdAt.toISOString(),
      expiresAt: sandbox.expiresAt.toISOString(),
      livemode: true,
    };
  }
}

@ApiSchema({ name: 'NewSandboxKey', description: 'A new sandbox, with its API key: the one time the key is shown.' })
export class CreatedSandboxDto extends SandboxDto {
  @ApiProperty({
    type: 'string',
    description:
      'An API key of the sandbox (`psk_test_…`), holding every scope but the sandboxes’ own; it stops when the sandbox expires or ' +
      'is deleted. Shown only in this answer: keep it. More: `npm run apikey -- create NAME --sandbox sbx_…` (the operator).',
    example: 'psk_test_2b7Vq0kQm9XcRz1L8hNwT4yUe6oPa3sD5fGj7kLz9xC',
  })
  apiKey: string;

  /** The Sandbox's members, then the key (the contract's order, which the schema's inheritance gives too). */
  static made(sandbox: StoredSandbox, apiKey: string): CreatedSandboxDto {
    return { ...SandboxDto.from(sandbox), apiKey };
  }
}
