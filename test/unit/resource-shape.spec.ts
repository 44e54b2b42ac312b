import { describe, expect, it } from '@jest/globals';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { PET } from '../../src/pets/dto/pet-fields.js';
import { ORDER } from '../../src/store/dto/order-fields.js';
import { mergePatch } from '../../src/validation/merge-patch.js';
import { NO_METADATA } from '../../src/validation/metadata.js';
import { type Answer, field, type Patch, type Presence, ResourceShape } from '../../src/validation/resource-shape.js';

/**
 * A pet's fields of today, named one by one (a field added to PET changes nothing here), and a
 * clearable one no real field will be called, declared as pet-fields.ts would declare it.
 */
const WITH_NOTE = new ResourceShape({
  id: PET.fields.id,
  name: PET.fields.name,
  categoryId: PET.fields.categoryId,
  status: PET.fields.status,
  metadata: PET.fields.metadata,
  madeUpNote: field.clearable<string>((presence: Presence = {}) =>
    applyDecorators(ApiProperty({ type: 'string', minLength: 1, maxLength: 60, ...presence }), IsString()),
  ),
});

const REX = { id: 7, name: 'Rex', categoryId: 3, status: 'available', metadata: NO_METADATA, madeUpNote: null } as const;

describe('ResourceShape', () => {
  it('makes a create answer with every member in the declaration order, whatever order the request gave them in', () => {
    const pet = WITH_NOTE.create({ madeUpNote: 'Good dog', status: 'pending', categoryId: 3, name: 'Rex' }, { id: 7 });
    expect(JSON.stringify(pet)).toBe(JSON.stringify({ ...REX, status: 'pending', madeUpNote: 'Good dog' }));
    expect(Object.keys(pet)).toEqual(Object.keys(WITH_NOTE.fields));
  });

  it('fills in what a create leaves out: the default, null for a clearable field, no metadata', () => {
    expect(WITH_NOTE.create({ name: 'Rex', categoryId: 3 }, { id: 7 })).toStrictEqual(REX);
  });

  it('clears a field a patch sends null to null, and keeps the declaration order when a patch adds a member', () => {
    const named = WITH_NOTE.merge(REX, { madeUpNote: 'Good dog', name: 'Rex II' });
    expect(JSON.stringify(named)).toBe(JSON.stringify({ ...REX, name: 'Rex II', madeUpNote: 'Good dog' }));
    const cleared = WITH_NOTE.merge(named, { madeUpNote: null, metadata: null });
    // Not left out (SQLite would answer without it, MySQL would have no SQL literal for it): null.
    expect(cleared).toStrictEqual({ ...REX, name: 'Rex II' });
    expect(Object.keys(cleared)).toEqual(Object.keys(WITH_NOTE.fields));
  });

  it('merges metadata as RFC 7396 says, and empties it on null', () => {
    const tagged = WITH_NOTE.merge(REX, { metadata: { erp_id: 'A-17', a: 'b' } });
    expect(tagged.metadata).toEqual({ erp_id: 'A-17', a: 'b' });
    expect(WITH_NOTE.merge(tagged, { metadata: { a: null } as never }).metadata).toEqual({ erp_id: 'A-17' });
    expect(WITH_NOTE.merge(tagged, { metadata: null }).metadata).toBe(NO_METADATA);
  });

  it('derives which fields a null may not remove, and which it clears, from the rules', () => {
    expect(WITH_NOTE.nullMayNotRemove).toEqual(['name', 'categoryId', 'status']);
    expect(WITH_NOTE.nullRemoves).toEqual(['metadata', 'madeUpNote']);
    expect(WITH_NOTE.written).toEqual(['name', 'categoryId', 'status', 'metadata', 'madeUpNote']);
    expect(ORDER.changed).toEqual(['status', 'shipDate', 'complete', 'metadata']);
    expect(ORDER.nullMayNotRemove).toEqual(['status', 'shipDate']);
  });

  it("answers an order's ship date as UTC text with milliseconds, left out (not undefined) when none, in the declaration order", () => {
    const stored = {
      livemode: true,
      metadata: NO_METADATA,
      id: 1,
      petId: 2,
      quantity: 1,
      status: 'placed',
      shipDate: null,
      complete: false,
    };
    expect(Object.keys(ORDER.answer(stored))).toEqual(['id', 'petId', 'quantity', 'status', 'complete', 'metadata', 'livemode']);
    const shipping = ORDER.answer({ ...stored, shipDate: new Date('2026-12-01T10:30:00+01:00') });
    expect(JSON.stringify(shipping)).toBe(
      '{"id":1,"petId":2,"quantity":1,"status":"placed","shipDate":"2026-12-01T09:30:00.000Z","complete":false,"metadata":{},"livemode":true}',
    );
  });

  it('stores what an order is placed with: the ship date as a Date, null when none', () => {
    const placed = ORDER.createStored<Record<string, unknown>>(
      { petId: 2, quantity: 1, shipDate: '2026-12-01T10:30:00+01:00' },
      { id: 0, complete: false, livemode: false },
    );
    expect(placed).toStrictEqual({
      id: 0,
      petId: 2,
      quantity: 1,
      status: 'placed',
      shipDate: new Date('2026-12-01T09:30:00.000Z'),
      complete: false,
      metadata: NO_METADATA,
      livemode: false,
    });
    expect(
      ORDER.createStored<Record<string, unknown>>({ petId: 2, quantity: 1 }, { id: 0, complete: false, livemode: true }).shipDate,
    ).toBeNull();
  });

  it('answers livemode last, as the service gives it, which no create or patch writes and a patch leaves as it was', () => {
    const pet = PET.create({ name: 'Rex', categoryId: 3 }, { id: 7, livemode: false });
    expect(Object.keys(pet).at(-1)).toBe('livemode');
    expect(pet.livemode).toBe(false);
    expect(PET.merge(pet, { name: 'Rex II' })).toMatchObject({ name: 'Rex II', livemode: false });
    for (const shape of [PET, ORDER] as const) {
      expect(shape.written).not.toContain('livemode');
      expect(shape.patched).not.toContain('livemode');
      expect(shape.shown.at(-1)).toBe('livemode');
    }
  });

  it('names fields as the prose of the document does', () => {
    expect(ResourceShape.named(['name', 'categoryId', 'status'])).toBe('`name`, `categoryId` and `status`');
    expect(ResourceShape.listed(['metadata'])).toBe('metadata');
  });
});

/** The answer and the patch of the made-up shape: a field added to PET changes neither. */
type Noted = Answer<typeof WITH_NOTE.fields>;
type NotedPatch = Patch<typeof WITH_NOTE.fields>;

describe('mergePatch', () => {
  it('types a member a patch may set to null as possibly absent, so that a whole-object merge must put it back (issue 57 trap 3)', () => {
    const pet: Noted = REX;
    const patch: NotedPatch = { madeUpNote: null };
    const after = mergePatch(pet, patch);
    // @ts-expect-error a Merge Patch removes what a null names: put a cleared field back as null (or merge with ResourceShape.merge)
    const wrong: Noted = after;
    const right: Noted = {
      ...after,
      madeUpNote: after.madeUpNote ?? null,
      metadata: after.metadata ?? NO_METADATA,
    };
    expect(wrong).not.toHaveProperty('madeUpNote');
    expect(right.madeUpNote).toBeNull();
  });
});
