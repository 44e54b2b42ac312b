import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { QueryObject } from './query-transforms.js';
import { withoutPrototype } from './merge-patch.js';

/** An integrator's own references on a pet or an order (DECISIONS "Metadata"): string values by key; `{}` when none. */
export type Metadata = Readonly<Record<string, string>>;

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_VALUE = 500;
const KEY = /^[A-Za-z0-9_.-]{1,40}$/;
const KEY_RULE = '1 to 40 characters of A-Z, a-z, 0-9, _, . and -';

/**
 * Why `value` is no metadata as a client sends it, or undefined when it is: a JSON object of up to
 * 50 keys, each 1 to 40 characters of [A-Za-z0-9_.-], whose values are strings of up to 500
 * characters (Unicode code points, as MySQL counts them; well-formed, so that they store as UTF-8)
 * or null, which removes the key (a Merge Patch's member, RFC 7396; on create it removes nothing).
 */
export function metadataProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'metadata must be a JSON object of string values';
  const entries = Object.entries(value);
  if (entries.length > METADATA_MAX_KEYS) return `metadata holds at most ${METADATA_MAX_KEYS} keys`;
  for (const [key, member] of entries) {
    if (!KEY.test(key)) return `metadata key ${JSON.stringify(key.slice(0, 50))} must be ${KEY_RULE}`;
    if (member !== null && (typeof member !== 'string' || !member.isWellFormed() || !fitsValue(member)))
      return `metadata.${key} must be a string of at most ${METADATA_MAX_VALUE} characters, or null to remove it`;
  }
  return undefined;
}

/** Whether `text` is at most METADATA_MAX_VALUE code points: counted only when its UTF-16 length could exceed them. */
function fitsValue(text: string): boolean {
  if (text.length <= METADATA_MAX_VALUE) return true;
  let codePoints = 0;
  // Well-formed (checked first): a high surrogate always begins a pair, one code point.
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) i++;
    if (++codePoints > METADATA_MAX_VALUE) return false;
  }
  return true;
}

/** Why metadata `merged` (a patch applied) cannot be kept, or undefined when it can: at most 50 keys. */
export function mergedMetadataProblem(merged: Metadata): string | undefined {
  const keys = Object.keys(merged).length;
  return keys > METADATA_MAX_KEYS ? `metadata would hold ${keys} keys with this patch; it holds at most ${METADATA_MAX_KEYS}` : undefined;
}

/**
 * A metadata property: its validation and its document, stated once. An optional one (`required:
 * false`) takes no metadata at all: one check, no ValidateIf beside it (class-validator runs every
 * decorator of a property on every request: bench:alloc).
 */
export function MetadataProperty({ required = true, nullable }: { required?: boolean; nullable?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    (required ? ApiProperty : ApiPropertyOptional)({
      type: 'object',
      // A Merge Patch's (nullable): a key set to null is removed.
      additionalProperties: { type: 'string', maxLength: METADATA_MAX_VALUE, ...(nullable ? { nullable } : {}) },
      maxProperties: METADATA_MAX_KEYS,
      description:
        `Your own references (an order's id in your ERP, say): up to ${METADATA_MAX_KEYS} keys of ${KEY_RULE}, each a string ` +
        `of up to ${METADATA_MAX_VALUE} characters; \`{}\` when none. A PATCH merges it (RFC 7396): a key set to null is ` +
        'removed, `metadata: null` removes them all. Listings filter by one pair: `metadata[key]=value`.',
      example: { erp_id: 'A-17' },
      ...(nullable ? { nullable } : {}),
    }),
    ValidateBy({
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => (value === undefined && !required) || metadataProblem(value) === undefined,
        defaultMessage: ({ value }: ValidationArguments) => metadataProblem(value) ?? 'metadata is not valid',
      },
    }),
  );
}

/**
 * No metadata: one frozen object for every row that has none (most of them), none made per row.
 * Metadata never has a prototype (mergePatch, the column, the filter make it so): each key the rule
 * allows, `__proto__` and `constructor` included, is a member like any other, and a key it lacks is
 * never found on Object.prototype.
 */
export const NO_METADATA: Metadata = Object.freeze(withoutPrototype({}));

/** The metadata column's side (the entity's transformer): JSON text, NULL for none; read back as `{}` for none. */
export const METADATA_COLUMN = {
  to: (metadata: Metadata | undefined): string | null =>
    metadata === undefined || Object.keys(metadata).length === 0 ? null : JSON.stringify(metadata),
  // JSON.parse makes `__proto__` an own member; its object then loses its prototype, as every metadata has none (NO_METADATA).
  from: (text: string | null): Metadata => (text === null ? NO_METADATA : withoutPrototype(JSON.parse(text) as Metadata)),
};

/** Why `value` is no filter by one metadata pair (`metadata[key]=value`, gathered by QueryObject), or undefined when it is. */
export function metadataPairProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'metadata filters by one pair, given as metadata[key]=value';
  const entries = Object.entries(value);
  if (entries.length !== 1) return 'metadata filters by one pair only: give one metadata[key]=value';
  const [[key, member]] = entries;
  if (!KEY.test(key)) return `metadata key ${JSON.stringify(key.slice(0, 50))} must be ${KEY_RULE}`;
  if (typeof member !== 'string') return `metadata[${key}] must be given once`;
  if (!member.isWellFormed() || !fitsValue(member)) return `metadata[${key}] must be at most ${METADATA_MAX_VALUE} characters`;
  return undefined;
}

/** A listing's filter by one metadata pair: `metadata[key]=value` (OpenAPI deepObject), its validation and document. */
export function MetadataFilter(owners: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: METADATA_MAX_VALUE },
      maxProperties: 1,
      // No sample as example: Swagger UI would send it unasked (the document gives the parameter the empty object).
      description: `Only ${owners} whose metadata holds this one pair: \`metadata[key]=value\`, such as \`metadata[erp_id]=A-17\` (more than one pair is a 400).`,
    }),
    QueryObject(metadataPairProblem),
  );
}
