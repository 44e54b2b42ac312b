import { hash } from 'node:crypto';
import { ValidationFailedException } from '../errors/api-exception.js';

/**
 * The strong entity tag (RFC 9110 §8.8.3) of a representation: a digest of the very JSON the API
 * sends, and of a page's Link header (two pages with the same items but another next page differ).
 * A digest of the representation is a strong validator (RFC 9110 §8.8.1), computed from what is
 * answered anyway: it costs no round trip, and a replay of a stored answer carries the same tag.
 */
export function entityTagOf(json: string, link?: string): string {
  return `"${hash('sha256', link ? `${json}\n${link}` : json, 'base64url').slice(0, 22)}"`;
}

/** The entity tag of an answer the API sends as `answer` (a pet, an order): for the preconditions of a change. */
export function entityTagOfAnswer(answer: object): string {
  return entityTagOf(JSON.stringify(answer));
}

/** `If-Match` or `If-None-Match` as a request sent it: `*` (any current representation), or the tags it names. */
export type EntityTags = '*' | readonly string[];

/** The preconditions a request sent (RFC 9110 §13.1.1 and §13.1.2); a header it did not send is undefined. */
export interface Preconditions {
  readonly ifMatch?: EntityTags;
  readonly ifNoneMatch?: EntityTags;
}

/** One member of a list of entity tags, with the separator after it: `W/"…"` or `"…"`; a quoted tag may hold a comma. */
const LIST_MEMBER = /[ \t]*(?:((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")[ \t]*)?(,|$)/y;

/**
 * The entity tags of an `If-Match` or `If-None-Match` field: `*`, or the list (RFC 9110 §13.1.1:
 * `#entity-tag`, so empty members are allowed and a comma inside quotes belongs to its tag);
 * undefined when it is neither.
 */
export function parseEntityTags(field: string): EntityTags | undefined {
  if (field.trim() === '*') return '*';
  const tags: string[] = [];
  LIST_MEMBER.lastIndex = 0;
  while (LIST_MEMBER.lastIndex < field.length) {
    const member = LIST_MEMBER.exec(field);
    if (!member) return undefined;
    if (member[1] !== undefined) tags.push(member[1]);
    if (member[2] === '') break;
  }
  return tags.length > 0 ? tags : undefined;
}

/**
 * The preconditions of a change (PATCH, DELETE, cancel); 400 when a field is neither `*` nor a list
 * of entity tags: a change must not guess what its client meant.
 */
export function readChangePreconditions(headers: { 'if-match'?: string; 'if-none-match'?: string }): Preconditions {
  return { ifMatch: readTags('If-Match', headers['if-match']), ifNoneMatch: readTags('If-None-Match', headers['if-none-match']) };
}

function readTags(name: string, field: string | undefined): EntityTags | undefined {
  if (field === undefined) return undefined;
  const tags = parseEntityTags(field);
  if (tags === undefined)
    throw new ValidationFailedException(`${name} must be * or a list of entity tags as the ETag header gives them ("…").`);
  return tags;
}

/** Which precondition failed for the representation tagged `current`, in RFC 9110 §13.2.2's order; undefined when none did. */
export function failedPrecondition({ ifMatch, ifNoneMatch }: Preconditions, current: string): 'If-Match' | 'If-None-Match' | undefined {
  // Strong comparison: a weak tag never matches (§13.1.1).
  if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(current)) return 'If-Match';
  // Weak comparison (§13.1.2): the W/ prefix is ignored. A current representation exists, so `*` matches.
  if (ifNoneMatch !== undefined && (ifNoneMatch === '*' || ifNoneMatch.some((tag) => tag.replace(/^W\//, '') === current)))
    return 'If-None-Match';
  return undefined;
}
