import { describe, expect, it } from '@jest/globals';
import { id, text } from '../../src/database/columns.js';
import { Sql } from '../../src/database/sql.js';
import { InsertedId, JsonWithInsertedId } from '../../src/database/statement.js';
import { useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/**
 * Sql.write, which runs a write's statements in one transaction (on MySQL in one round trip):
 * all or nothing, on the service's own connection, leaving no connection in a transaction behind.
 */
describe.each(DATABASE_KINDS)('Sql on %s', (kind) => {
  const ctx = useApp(kind);
  const sql = () => ctx.app.get(Sql);
  const petsNamed = async (name: string) =>
    (await sql().rows('SELECT id FROM pets WHERE environment = 0 AND name = ?', [name], (row) => id(row.id))).length;
  const insertPet = (name: string) => ({
    sql: 'INSERT INTO pets (environment, name, category_id, status) VALUES (0, ?, ?, ?)',
    parameters: [name, 1, 'available'],
  });

  it('applies every statement and says what each did, the later ones writing the id the first one generated', async () => {
    const id = new InsertedId('pet');
    const payload = new JsonWithInsertedId({ id: 0, name: 'written' }, ['id'], id);
    const [pet, recorded] = await sql().write([
      { ...insertPet('all-of-it'), inserts: id },
      { sql: 'UPDATE pets SET name = ? WHERE name = ? AND environment = 0', parameters: [payload, 'all-of-it'] },
    ]);
    expect(pet).toEqual({ insertId: expect.any(Number), affectedRows: 1 });
    expect(recorded.affectedRows).toBe(1);
    const [name] = await sql().rows('SELECT name FROM pets WHERE id = ? AND environment = 0', [pet.insertId], (row) => text(row.name));
    expect(name).toBe(`{"id":${pet.insertId},"name":"written"}`);
  });

  it('applies none when a statement fails, and its connection serves the next statement', async () => {
    const failing = { sql: 'INSERT INTO no_such_table (id) VALUES (?)', parameters: [1] };
    await expect(sql().write([insertPet('none-of-it'), failing])).rejects.toThrow(/no_such_table/);
    // Every connection of the pool is asked, so that one left inside the failed transaction would show.
    for (let i = 0; i < 12; i++) expect(await petsNamed('none-of-it')).toBe(0);
    await sql().write([insertPet('after-a-failure')]);
    expect(await petsNamed('after-a-failure')).toBe(1);
  });

  it('applies none when the check refuses what the statements did', async () => {
    await expect(
      sql().write([insertPet('refused')], () => {
        throw new Error('refused by the check');
      }),
    ).rejects.toThrow('refused by the check');
    expect(await petsNamed('refused')).toBe(0);
  });

  it('refuses a statement on a confined table that names no environment, and gives its connection back', async () => {
    // More refusals than the pool has connections (DB_POOL_SIZE, 10): a refusal that kept its connection would leave none.
    for (let i = 0; i < 25; i++)
      await expect(sql().rows('SELECT id FROM pets WHERE name = ?', ['anyone'], (row) => id(row.id))).rejects.toThrow(
        /^a statement on pets names no environment/,
      );
    await expect(sql().run('DELETE FROM pets WHERE name = ?', ['anyone'])).rejects.toThrow(/names no environment/);
    expect(await petsNamed('anyone')).toBe(0);
  });
});
