/**
 * The benchmark's yardstick: the same three operations as the service (listPets, createPet,
 * getPet) with the same rules, written straight on node:http and mysql2 with nothing else in
 * between. It uses the service's own rule helpers (bearer parsing, key hashing, the name rule,
 * the cursor), so the two differ only in how much machinery carries a request to its query.
 *
 * BASELINE_PORT, DATABASE_URL (mysql://…), DB_POOL_SIZE.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import mysql, { type ResultSetHeader, type RowDataPacket } from 'mysql2/promise';
import { hashApiKey } from '../src/auth/api-key-secret.js';
import { readBearerToken } from '../src/auth/bearer-token.js';
import { isName } from '../src/validation/name.js';
import { decodeCursor, encodeCursor } from '../src/pagination/cursor.js';

const STATUSES = new Set(['available', 'pending', 'sold']);
const BODY_LIMIT = 128 * 1024;
const KEY_CACHE_MS = 30_000;

const pool = mysql.createPool({
  uri: process.env.DATABASE_URL,
  connectionLimit: Number(process.env.DB_POOL_SIZE ?? 10),
  charset: 'utf8mb4_unicode_ci',
  supportBigNumbers: true,
  bigNumberStrings: false,
});
const keys = new Map<string, { valid: boolean; until: number }>();

class Failure {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), ...headers });
  response.end(json);
}

async function authenticate(request: IncomingMessage): Promise<void> {
  const token = readBearerToken(request.headers.authorization);
  if (token === undefined)
    throw new Failure(401, 'API_KEY_MISSING', 'An API key is required.', { 'WWW-Authenticate': 'Bearer realm="petstore"' });
  const hash = hashApiKey(token);
  let known = keys.get(hash);
  if (!known || known.until < Date.now()) {
    const [rows] = await pool.query<RowDataPacket[]>('SELECT key_hash, revoked_at FROM api_keys WHERE key_hash = ?', [hash]);
    const valid =
      rows.length === 1 && rows[0].revoked_at === null && timingSafeEqual(Buffer.from(rows[0].key_hash, 'hex'), Buffer.from(hash, 'hex'));
    known = { valid, until: Date.now() + KEY_CACHE_MS };
    keys.set(hash, known);
  }
  if (!known.valid) {
    throw new Failure(401, 'API_KEY_INVALID', 'The API key is not valid.', {
      'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"',
    });
  }
}

async function listPets(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const problems: string[] = [];
  const limitText = url.searchParams.getAll('limit');
  const limit = limitText.length === 0 ? 20 : limitText.length === 1 && /^\d+$/.test(limitText[0]) ? Number(limitText[0]) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) problems.push('limit must be an integer from 1 to 100');
  const statuses = url.searchParams.getAll('status');
  const status = statuses[0];
  if (statuses.length > 1 || (status !== undefined && !STATUSES.has(status)))
    problems.push('status must be one of available, pending, sold');
  if (problems.length) throw new Failure(400, 'VALIDATION_FAILED', `${problems.join('; ')}.`);
  const cursors = url.searchParams.getAll('cursor');
  if (cursors.length > 1) throw new Failure(400, 'VALIDATION_FAILED', 'cursor must be given once.');
  const filter = { status };
  let afterId = 0;
  try {
    if (cursors.length) afterId = decodeCursor(cursors[0], 'pets', filter);
  } catch {
    throw new Failure(400, 'VALIDATION_FAILED', 'cursor is not valid for this listing.');
  }
  const where = [...(status ? ['status = ?'] : []), ...(afterId ? ['id > ?'] : [])];
  const [rows] = await pool.query<RowDataPacket[]>(
    `SELECT id, name, category_id AS categoryId, status FROM pets ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT ?`,
    [...(status ? [status] : []), ...(afterId ? [afterId] : []), limit + 1],
  );
  const items = rows.slice(0, limit);
  const headers: Record<string, string> = {};
  if (rows.length > limit) {
    const next = new URL(request.url ?? '/', `http://${request.headers.host}`);
    next.searchParams.set('cursor', encodeCursor(items[items.length - 1].id, 'pets', filter));
    headers.Link = `<${next.href}>; rel="next"`;
  }
  send(response, 200, items, headers);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  const length = request.headers['content-length'];
  if (length !== '0' && (length !== undefined || request.headers['transfer-encoding'] !== undefined)) {
    if (!/^application\/json\s*(;|$)/i.test(type))
      throw new Failure(400, 'UNSUPPORTED_MEDIA_TYPE', 'A request body must be sent with Content-Type: application/json.');
  }
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Failure(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 128 KiB.');
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Failure(400, 'MALFORMED_JSON', 'The request body is not valid JSON.');
  }
}

async function createPet(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJson(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Failure(400, 'VALIDATION_FAILED', 'The request body must be a JSON object.');
  const { name, categoryId, status = 'available', ...rest } = body as Record<string, unknown>;
  const problems = Object.keys(rest).map((key) => `${key} is not allowed`);
  if (!isName(name, 1, 255)) problems.push('name must be a string of 1 to 255 characters, not only white space');
  if (!Number.isSafeInteger(categoryId) || (categoryId as number) < 1)
    problems.push(`categoryId must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
  if (typeof status !== 'string' || !STATUSES.has(status)) problems.push('status must be one of available, pending, sold');
  if (problems.length) throw new Failure(400, 'VALIDATION_FAILED', `${problems.join('; ')}.`);
  const [result] = await pool.query<ResultSetHeader>('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)', [
    name,
    categoryId,
    status,
  ]);
  const pet = { id: result.insertId, name, categoryId, status };
  send(response, 201, pet, { Location: `http://${request.headers.host}/v1/pets/${pet.id}` });
}

async function getPet(response: ServerResponse, idText: string): Promise<void> {
  if (!/^[1-9][0-9]{0,18}$/.test(idText) || BigInt(idText) > 9_223_372_036_854_775_807n) {
    throw new Failure(400, 'VALIDATION_FAILED', 'petId must be a positive integer of at most 2^63-1.');
  }
  const [rows] =
    BigInt(idText) <= BigInt(Number.MAX_SAFE_INTEGER)
      ? await pool.query<RowDataPacket[]>('SELECT id, name, category_id AS categoryId, status FROM pets WHERE id = ?', [Number(idText)])
      : [[]];
  if (!rows.length) throw new Failure(404, 'PET_NOT_FOUND', `No pet has id ${idText}.`);
  send(response, 200, rows[0]);
}

async function updatePet(request: IncomingMessage, response: ServerResponse, idText: string): Promise<void> {
  if (!/^[1-9][0-9]{0,15}$/.test(idText)) throw new Failure(400, 'VALIDATION_FAILED', 'petId must be a positive integer.');
  const { name } = (await readJson(request)) as Record<string, unknown>;
  if (!isName(name, 1, 255))
    throw new Failure(400, 'VALIDATION_FAILED', 'name must be a string of 1 to 255 characters, not only white space.');
  const [result] = await pool.query<ResultSetHeader>('UPDATE pets SET name = ? WHERE id = ?', [name, Number(idText)]);
  if (result.affectedRows === 0) throw new Failure(404, 'PET_NOT_FOUND', `No pet has id ${idText}.`);
  send(response, 200, { id: Number(idText), name });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  await authenticate(request);
  const url = new URL(request.url ?? '/', 'http://baseline');
  if (url.pathname === '/v1/pets') {
    if (request.method === 'GET') return listPets(request, response, url);
    if (request.method === 'POST') return createPet(request, response);
    throw new Failure(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed.`, { Allow: 'GET, HEAD, POST' });
  }
  const match = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
  if (match) {
    if (request.method === 'GET') return getPet(response, match[1]);
    if (request.method === 'PATCH') return updatePet(request, response, match[1]);
    throw new Failure(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed.`, { Allow: 'GET, HEAD, PATCH' });
  }
  throw new Failure(404, 'ROUTE_NOT_FOUND', `No route matches ${request.method} ${url.pathname}.`);
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    if (error instanceof Failure)
      send(response, error.status, { code: error.code, message: error.message, status: error.status }, error.headers);
    else send(response, 500, { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.', status: 500 });
  });
}).listen(Number(process.env.BASELINE_PORT ?? 3100), '127.0.0.1', () => process.stdout.write('baseline listening\n'));
