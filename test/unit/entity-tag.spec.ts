import { describe, expect, it } from '@jest/globals';
import { entityTagOf, entityTagOfAnswer } from '../../src/http/entity-tag.js';

describe("a single resource's entity tag", () => {
  const pet = { id: 7, name: 'Rex', categoryId: 3, status: 'available', metadata: { erp: 'A-1', batch: 'B7' } };

  it('does not depend on the order its members were listed in, at any depth (issue 57 trap 4)', () => {
    const reordered = { metadata: { batch: 'B7', erp: 'A-1' }, status: 'available', categoryId: 3, name: 'Rex', id: 7 };
    expect(entityTagOfAnswer(reordered)).toBe(entityTagOfAnswer(pet));
  });

  it('differs when any value differs, a member named __proto__ included', () => {
    expect(entityTagOfAnswer({ ...pet, name: 'Rexy' })).not.toBe(entityTagOfAnswer(pet));
    const withProto = JSON.parse('{"id":7,"metadata":{"__proto__":"x"}}') as object;
    const withOther = JSON.parse('{"id":7,"metadata":{"__proto__":"y"}}') as object;
    expect(entityTagOfAnswer(withProto)).not.toBe(entityTagOfAnswer(withOther));
    expect(entityTagOfAnswer(withProto)).not.toBe(entityTagOfAnswer({ id: 7, metadata: {} }));
  });

  it('is a strong tag of 22 base64url characters, as a page’s', () => {
    expect(entityTagOfAnswer(pet)).toMatch(/^"[\w-]{22}"$/);
    expect(entityTagOf(JSON.stringify(pet))).toMatch(/^"[\w-]{22}"$/);
  });
});
