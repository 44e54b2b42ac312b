import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { SqlDialect } from '../../src/database/sql-dialect.js';
import { INSERTED_ID, Sql } from '../../src/database/sql.js';
import { useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/**
 * Sql.write, which runs a create's statements in one transaction (on MySQL in one round trip):
 * all or nothing, on the service's own connection, leaving no connection in a transaction behind.
 */
describe.each(DATABASE_KINDS)('Sql on %s', (kind) => {
  const ctx = useApp(kind);
  const sql = () => ctx.app.get(Sql);
  const dialect = () => new SqlDialect(ctx.app.get(DataSource));
  const petsNamed = async (name: string) => (await sql().rows<{ id: number }>('SELECT id FROM pets WHERE name = ?', [name])).length;
  const insertPet = (name: string) => ({
    sql: 'INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)',
    parameters: [name, 1, 'available'],
  });

  it('applies every statement and says what each did, the later ones writing the id the first one generated', async () => {
    const payload = dialect().jsonWithInsertedId({ id: INSERTED_ID, name: 'written' });
    const [pet, recorded] = await sql().write([
      insertPet('all-of-it'),
      { sql: `UPDATE pets SET name = ${payload.expression} WHERE name = ?`, parameters: [...payload.parameters, 'all-of-it'] },
    ]);
    expect(pet).toEqual({ insertId: expect.any(Number), affectedRows: 1 });
    expect(recorded.affectedRows).toBe(1);
    const [row] = await sql().rows<{ name: string }>('SELECT name FROM pets WHERE id = ?', [pet.insertId]);
    expect(JSON.parse(row.name)).toEqual({ id: pet.insertId, name: 'written' });
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
});
