import { beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  PetStore,
  type TestSandbox,
} from '../../clients/typescript/src/index.js';
import { TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/**
 * The TypeScript SDK's sandboxes (issue 58) against the real service on both databases: the four
 * calls, and `forTest()`, the helper an integrator's suite makes its sandbox with.
 */
describe.each(DATABASE_KINDS)('the TypeScript SDK’s sandboxes on %s', (kind) => {
  const ctx = useApp(kind, { RATE_LIMIT_PER_MINUTE: '0' });
  let live: PetStore;
  beforeAll(() => {
    const baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`;
    live = new PetStore({ apiKey: TEST_API_KEY, baseUrl, maxRetries: 0 });
  });

  it('creates a sandbox with its key, lists it page by page, gets it, and deletes it', async () => {
    const made = await live.sandboxes.create({ name: 'ci-run-1234', expiresIn: 3600 });
    expect(made).toEqual({
      id: expect.stringMatching(/^sbx_/),
      name: 'ci-run-1234',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      livemode: true,
      apiKey: expect.stringMatching(/^psk_test_/),
    });
    expect(Date.parse(made.expiresAt) - Date.parse(made.createdAt)).toBe(3_600_000);
    const other = await live.sandboxes.create({ name: 'ci-run-1235' });
    expect(Date.parse(other.expiresAt) - Date.parse(other.createdAt)).toBe(86_400_000);

    const { apiKey: _, ...sandbox } = made;
    const first = await live.sandboxes.list({ limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.hasNextPage()).toBe(true);
    const listed = [];
    for await (const each of live.sandboxes.list({ limit: 1 })) listed.push(each);
    expect(listed).toEqual(expect.arrayContaining([sandbox]));
    expect(listed.map((each) => each.id)).toContain(other.id);
    expect(await live.sandboxes.get(made.id)).toEqual(sandbox);

    await live.sandboxes.delete(made.id);
    await live.sandboxes.delete(other.id);
    const gone = await live.sandboxes.get(made.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('SANDBOX_NOT_FOUND');
    expect((await live.sandboxes.list({ limit: 100 })).data.map((each) => each.id)).not.toContain(made.id);
  });

  it('sends a create once, without an Idempotency-Key: the service refuses one, and a create cannot be replayed', async () => {
    const sent: Record<string, string>[] = [];
    const spy = new PetStore({
      apiKey: TEST_API_KEY,
      baseUrl: `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`,
      fetch: (url, init) => {
        sent.push(init.headers);
        return fetch(url, init as RequestInit);
      },
    });
    const made = await spy.sandboxes.create({ name: 'no key' });
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]).map((name) => name.toLowerCase())).not.toContain('idempotency-key');
    await live.sandboxes.delete(made.id);
  });

  it('refuses a sandbox’s own key the sandboxes’ calls (PermissionDeniedError)', async () => {
    await using sandbox = await live.sandboxes.forTest();
    const refused = await sandbox.client.sandboxes.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as PermissionDeniedError).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('forTest(): a sandbox with a client bound to its key, on an empty store apart from live, deleted when the block ends', async () => {
    const livePet = await live.pets.create({ name: `Live ${kind}`, categoryId: 1 });
    let kept: TestSandbox;
    {
      await using sandbox = await live.sandboxes.forTest({ name: 'checkout tests' });
      kept = sandbox;
      expect(sandbox.id).toMatch(/^sbx_/);
      expect(sandbox.name).toBe('checkout tests');
      expect(sandbox.apiKey).toMatch(/^psk_test_/);
      expect(Date.parse(sandbox.expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
      expect((await live.sandboxes.get(sandbox.id)).name).toBe('checkout tests');

      // Empty when made: live's pet is not there, not even by its id.
      expect((await sandbox.client.pets.list()).data).toEqual([]);
      expect(Object.values(await sandbox.client.store.inventory()).filter((count) => count !== 0)).toEqual([]);
      await expect(sandbox.client.store.orders.create({ petId: livePet.id, quantity: 1 })).rejects.toBeInstanceOf(NotFoundError);

      // What it makes stays in it: live lists nor finds it.
      const sandboxPet = await sandbox.client.pets.create({ name: `Sandboxed ${kind}`, categoryId: 2 });
      expect((await sandbox.client.pets.list()).data.map((pet) => pet.id)).toEqual([sandboxPet.id]);
      const liveIds = [];
      for await (const pet of live.pets.list({ limit: 100 })) liveIds.push(pet.id);
      expect(liveIds).toContain(livePet.id);
      expect(liveIds).not.toContain(sandboxPet.id);
      await expect(live.store.orders.create({ petId: sandboxPet.id, quantity: 1 })).rejects.toBeInstanceOf(NotFoundError);
    }
    // Gone after the block: not found, and its key refused.
    await expect(live.sandboxes.get(kept.id)).rejects.toBeInstanceOf(NotFoundError);
    const refused = await kept.client.pets.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).status).toBe(401);
  });

  it('forTest(): deletes the sandbox when the block throws, and takes one already gone (expired, deleted) as no error', async () => {
    let id = '';
    const failing = async () => {
      await using sandbox = await live.sandboxes.forTest({ expiresIn: 60 });
      id = sandbox.id;
      expect(sandbox.name).toMatch(/^test \d{4}-\d\d-\d\dT/);
      throw new Error('a failed test');
    };
    await expect(failing()).rejects.toThrow('a failed test');
    await expect(live.sandboxes.get(id)).rejects.toBeInstanceOf(NotFoundError);

    const sandbox = await live.sandboxes.forTest();
    await live.sandboxes.delete(sandbox.id);
    await expect(sandbox[Symbol.asyncDispose]()).resolves.toBeUndefined();
  });
});
