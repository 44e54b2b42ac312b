import { describe, expect, it } from '@jest/globals';
import { CONFINED_TABLES, checkConfined, EVERY_ENVIRONMENT, UnconfinedStatementError } from '../../src/database/confined-statements.js';

/** A statement on a confined table names its environment, or says it works across all of them; Sql refuses any other (issue 58). */
describe('checkConfined', () => {
  it.each([
    ['a read', 'SELECT id, name FROM pets WHERE id = ?', 'pets'],
    ['an update', 'UPDATE orders SET status = ? WHERE id = ?', 'orders'],
    ['a delete', 'DELETE FROM pet_metadata WHERE pet_id = ?', 'pet_metadata'],
    ['an insert', 'INSERT INTO events (public_id, type) VALUES (?, ?)', 'events'],
    ['a join', 'SELECT o.id FROM order_metadata m JOIN orders o ON o.id = m.order_id', 'order_metadata'],
    ['a read in capitals', 'select id from WEBHOOK_ENDPOINTS where id = ?', 'WEBHOOK_ENDPOINTS'],
  ])('refuses %s of a confined table that names no environment, naming the table', (_, sql, table) => {
    expect(() => checkConfined(sql)).toThrow(UnconfinedStatementError);
    expect(() => checkConfined(sql)).toThrow(new RegExp(`^a statement on ${table} names no environment`));
  });

  it('refuses the one statement of several that names no environment', () => {
    const sql = 'UPDATE pets SET status = ? WHERE id = ? AND environment = ?; DELETE FROM request_log WHERE id < ?';
    expect(() => checkConfined(sql)).toThrow(/^a statement on request_log names no environment/);
  });

  it('passes a statement that names the environment, read or written', () => {
    expect(() => checkConfined('SELECT id FROM pets WHERE environment = ? AND id > ? ORDER BY id LIMIT ?')).not.toThrow();
    expect(() => checkConfined('INSERT INTO pet_metadata (environment, pet_id, name, value) VALUES ?')).not.toThrow();
    expect(() => checkConfined('DELETE FROM orders WHERE id = ? AND environment = ?')).not.toThrow();
  });

  it(`passes a statement marked ${EVERY_ENVIRONMENT}, which works across every environment on purpose`, () => {
    expect(() => checkConfined(`SELECT 1 AS readable FROM pets ${EVERY_ENVIRONMENT} LIMIT 1`)).not.toThrow();
    expect(() => checkConfined(`DELETE FROM idempotency_records ${EVERY_ENVIRONMENT} WHERE expires_at < ?`)).not.toThrow();
  });

  it('passes a statement on a table that is not confined', () => {
    expect(CONFINED_TABLES.has('api_keys')).toBe(false);
    expect(() => checkConfined('SELECT id FROM api_keys WHERE key_hash = ?')).not.toThrow();
    expect(() => checkConfined('SELECT UTC_TIMESTAMP(3) AS now')).not.toThrow();
  });

  it('refuses a statement every time, never remembering a refused one as checked', () => {
    const sql = 'SELECT id FROM webhook_deliveries WHERE id = ?';
    for (let i = 0; i < 3; i++) expect(() => checkConfined(sql)).toThrow(UnconfinedStatementError);
  });

  it('does not take a column or table whose name only contains "environment" for the environment', () => {
    expect(() => checkConfined('SELECT environments_seen FROM pets WHERE id = ?')).toThrow(UnconfinedStatementError);
  });
});
