import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { datetime, flag, id, IdOutOfRangeError } from '../../src/database/columns.js';
import { InsertedId, JsonWithInsertedId } from '../../src/database/statement.js';
import { listOf, rowsOf, sqlLiteral, utcDatetime, withListsExpanded, withLiterals } from '../../src/database/sql-literal.js';

describe('values written into statement text as literals', () => {
  it('writes a string as hex UTF-8 bytes with an introducer: no quote, backslash or byte a character set can join', () => {
    expect(sqlLiteral("x',1);#")).toBe("_utf8mb4 X'78272c31293b23'");
    expect(sqlLiteral('縗\\')).toBe("_utf8mb4 X'e7b8975c'");
    expect(sqlLiteral('a\tb')).toBe("_utf8mb4 X'610962'");
    expect(sqlLiteral('')).toBe("_utf8mb4 X''");
  });

  it('writes printable ASCII but the quote and the backslash as it is, with the introducer', () => {
    expect(sqlLiteral('{"name":"Rex; DROP TABLE pets -- ?"}')).toBe(`_utf8mb4'{"name":"Rex; DROP TABLE pets -- ?"}'`);
    expect(sqlLiteral(' ~')).toBe("_utf8mb4' ~'");
  });

  it('writes every string as a literal of exactly its UTF-8 bytes, holding no quote or backslash of its own', () => {
    const bytesOf = (literal: string): Buffer =>
      literal.startsWith("_utf8mb4 X'")
        ? Buffer.from(literal.slice("_utf8mb4 X'".length, -1), 'hex')
        : Buffer.from(literal.slice("_utf8mb4'".length, -1), 'latin1');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary-ascii' })), (text) => {
        const literal = sqlLiteral(text);
        expect(literal).toMatch(/^_utf8mb4( X'([0-9a-f]{2})*'|'[\x20-\x26\x28-\x5b\x5d-\x7e]+')$/);
        expect(bytesOf(literal).toString('utf8')).toBe(text);
      }),
    );
  });

  it('writes numbers, flags, nothing and times as their digits', () => {
    expect([42, 2 ** 53 - 1, 0.5, 7n, true, false, null].map(sqlLiteral)).toEqual(['42', '9007199254740991', '0.5', '7', '1', '0', 'NULL']);
    expect(sqlLiteral(new Date('2026-11-26T01:02:03.004Z'))).toBe("'2026-11-26 01:02:03.004'");
  });

  it('refuses what has no literal rather than guess', () => {
    for (const value of [Number.NaN, Infinity, undefined, {}, [], Symbol('x'), () => 1]) expect(() => sqlLiteral(value)).toThrow(TypeError);
    expect(() => utcDatetime(new Date(Number.NaN))).toThrow();
    expect(() => utcDatetime(new Date('+012345-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('writes a list as its values and rows as their tuples, for a constant statement whose length varies', () => {
    expect(withLiterals('UPDATE t SET a = 1 WHERE id IN (?) AND b = ?', [listOf([1, 2, 3]), 'x'])).toBe(
      "UPDATE t SET a = 1 WHERE id IN (1, 2, 3) AND b = _utf8mb4'x'",
    );
    expect(
      withLiterals('INSERT INTO t (a, b) VALUES ?', [
        rowsOf([
          [1, 'x'],
          [2, null],
        ]),
      ]),
    ).toBe("INSERT INTO t (a, b) VALUES (1, _utf8mb4'x'), (2, NULL)");
    expect(withListsExpanded('SELECT a FROM t WHERE id IN (?) AND b = ?', [listOf([1, 2]), 'x'])).toEqual({
      sql: 'SELECT a FROM t WHERE id IN (?, ?) AND b = ?',
      parameters: [1, 2, 'x'],
    });
    expect(
      withListsExpanded('INSERT INTO t (a, b) VALUES ?', [
        rowsOf([
          [1, 'x'],
          [2, 'y'],
        ]),
      ]),
    ).toEqual({
      sql: 'INSERT INTO t (a, b) VALUES (?, ?), (?, ?)',
      parameters: [1, 'x', 2, 'y'],
    });
    expect(() => listOf([])).toThrow(RangeError);
  });

  it('fills each placeholder of a constant statement with its value, and refuses a count that differs', () => {
    expect(withLiterals('UPDATE t SET a = ?, b = ? WHERE id = ?', ['?', null, 3])).toBe(
      "UPDATE t SET a = _utf8mb4'?', b = NULL WHERE id = 3",
    );
    expect(() => withLiterals('SELECT ?', [])).toThrow(/0 values for 1 placeholders/);
  });
});

/** The id an insert of the write names. */
const PET_ID = new InsertedId('pet');

describe('JSON with the inserted id at its place', () => {
  it('is JSON.stringify of the value with the id in place, whatever the value holds', () => {
    const member = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.integer(),
      fc.constant('-9007199254740991'),
      fc.constant(-9007199254740991),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (rest, insertedId) => {
        const pet = { id: 0, ...rest, name: rest.name ?? 'Rex -9007199254740991' };
        expect(new JsonWithInsertedId(pet, ['id'], PET_ID).withId(insertedId)).toBe(JSON.stringify({ ...pet, id: insertedId }));
        const event = { id: 'evt_1', type: 'pet.created', data: { object: pet }, after: rest };
        const expected = JSON.stringify({ ...event, data: { object: { ...pet, id: insertedId } } });
        expect(new JsonWithInsertedId(event, ['data', 'object', 'id'], PET_ID).withId(insertedId)).toBe(expected);
      }),
    );
  });

  it('keeps the id where it stands among the members, first, last or alone', () => {
    expect(new JsonWithInsertedId({ id: 0 }, ['id'], PET_ID).withId(5)).toBe('{"id":5}');
    expect(new JsonWithInsertedId({ a: 1, id: 0 }, ['id'], PET_ID).withId(5)).toBe('{"a":1,"id":5}');
    expect(new JsonWithInsertedId({ a: undefined, id: 0, b: () => 1 }, ['id'], PET_ID).withId(5)).toBe('{"id":5}');
    expect(new JsonWithInsertedId({ a: undefined, id: 0, b: 2 }, ['id'], PET_ID).withId(5)).toBe('{"id":5,"b":2}');
  });

  it('keeps every member as JSON.stringify writes it, whatever its name', () => {
    const pet = JSON.parse('{"id":0,"__proto__":{"x":1},"7":"seven","toJSON":"no method"}') as object;
    const event = { data: { object: pet }, 2: 'two', ['__proto__']: 'own' };
    const expected = JSON.stringify(event).replace('"id":0', '"id":5');
    expect(new JsonWithInsertedId(event, ['data', 'object', 'id'], PET_ID).withId(5)).toBe(expected);
    expect(expected).toContain('"__proto__":{"x":1}');
    expect(expected).toContain('"__proto__":"own"');
  });

  it('refuses a path with no member at its end', () => {
    expect(() => new JsonWithInsertedId({ name: 'x' }, ['id'], PET_ID)).toThrow(/no member id/);
    expect(() => new JsonWithInsertedId(new Date(), ['id'], PET_ID)).toThrow(TypeError);
  });
});

describe('columns as the drivers return them', () => {
  it('reads ids up to 2^53-1 and refuses any beyond, never rounding one or answering a string', () => {
    expect([1, '42', 2 ** 53 - 1, '9007199254740991'].map(id)).toEqual([1, 42, 2 ** 53 - 1, 2 ** 53 - 1]);
    for (const beyond of ['9007199254740993', 2 ** 53, 0, -1, '1.5', null]) expect(() => id(beyond)).toThrow(IdOutOfRangeError);
  });

  it('reads times from either driver as the same instant, and flags as booleans', () => {
    const instant = new Date('2026-11-26T01:02:03.004Z');
    expect(datetime(instant)).toBe(instant);
    expect(datetime('2026-11-26 01:02:03.004')).toEqual(instant);
    expect([0, 1, '0', '1'].map(flag)).toEqual([false, true, false, true]);
  });
});
