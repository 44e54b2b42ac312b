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

/** The entity tag of an answer the API sends as `answer` (a pet, an order): for If-Match, before a change. */
export function entityTagOfAnswer(answer: object): string {
  return entityTagOf(JSON.stringify(answer));
}

/** `If-Match` as a request sent it: `*` (any current representation), or the tags it names. */
export type IfMatch = '*' | readonly string[];

const ENTITY_TAG = /^\s*(W\/)?"[\x21\x23-\x7e\x80-\xff]*"\s*$/;

/** The entity tags of an `If-Match` or `If-None-Match` field: `*`, or the list; undefined when it is neither. */
export function readEntityTags(field: string): IfMatch | undefined {
  if (field.trim() === '*') return '*';
  const tags = field.split(',').filter((tag) => tag.trim() !== '');
  return tags.length > 0 && tags.every((tag) => ENTITY_TAG.test(tag)) ? tags.map((tag) => tag.trim()) : undefined;
}

/** The request's If-Match, when it sent one; 400 when it is neither `*` nor a list of entity tags (a change must not guess). */
export function readIfMatch(field: string | undefined): IfMatch | undefined {
  if (field === undefined) return undefined;
  const tags = readEntityTags(field);
  if (tags === undefined)
    throw new ValidationFailedException('If-Match must be * or a list of entity tags as the ETag header gives them ("…").');
  return tags;
}

/** Whether `If-Match` holds for a representation tagged `current`: strong comparison, so a weak tag never does. */
export function ifMatchHolds(ifMatch: IfMatch, current: string): boolean {
  return ifMatch === '*' || ifMatch.includes(current);
}

/** Whether `If-None-Match` names the representation tagged `current`: weak comparison (W/ ignored). */
export function noneMatchHits(ifNoneMatch: IfMatch, current: string): boolean {
  return ifNoneMatch === '*' || ifNoneMatch.some((tag) => tag.replace(/^W\//, '') === current);
}
