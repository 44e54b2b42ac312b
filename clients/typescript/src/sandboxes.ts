import { ApiPromise } from './api-promise.js';
import type { PetStore } from './client.js';
import { NotFoundError } from './errors.js';
import type { components, operations } from './openapi.js';
import { listPages, type PagePromise } from './pagination.js';
import type { RequestOptions, Transport } from './transport.js';

/** An environment of its own for tests: its pets, orders, webhook endpoints, events, request log and keys. */
export type Sandbox = components['schemas']['Sandbox'];
export type NewSandbox = components['schemas']['NewSandbox'];
/** The sandbox as created: with its API key (`psk_test_…`), shown this once. */
export type CreatedSandbox = components['schemas']['NewSandboxKey'];
/** limit (1 to 100, 20 when left out); the cursor is the client's to follow. */
export type ListSandboxesQuery = Omit<NonNullable<operations['listSandboxes']['parameters']['query']>, 'cursor'>;

/** What `sandboxes.forTest()` makes: a name (one of the time when left out) and an expiry (an hour when left out). */
export interface TestSandboxOptions {
  readonly name?: string;
  /**
   * Seconds until the service removes the sandbox by itself (60 to 2,592,000): what bounds a
   * sandbox that a killed run never deleted. An hour when left out, rather than the service's 24:
   * a test run that needs longer says so.
   */
  readonly expiresIn?: number;
}

/** forTest()'s default expiry, in seconds (see TestSandboxOptions.expiresIn). */
export const TEST_SANDBOX_EXPIRES_IN = 3_600;

/**
 * Sandboxes: environments of their own for tests, each empty when made, none seeing live's data nor
 * live theirs. Managed with a live key (`psk_…`) holding `sandboxes:read` (list, get) and
 * `sandboxes:write` (create; delete needs both); a sandbox's own key is refused (PermissionDeniedError).
 * An unknown, deleted or expired id throws NotFoundError (SANDBOX_NOT_FOUND).
 */
export class Sandboxes {
  constructor(
    private readonly transport: Transport,
    /** A client of the same options as this one's, with another key: the sandbox's. */
    private readonly withKey: (apiKey: string) => PetStore,
  ) {}

  /**
   * Makes a sandbox; the answer holds its API key (`psk_test_…`), shown this once. Sent without an
   * Idempotency-Key (the service keeps no copy of the key to answer a retry with), so a create is
   * never retried: after a lost answer, list the sandboxes and delete the spare one.
   */
  create(body: NewSandbox, options: RequestOptions = {}): ApiPromise<CreatedSandbox> {
    return new ApiPromise(this.transport.send<CreatedSandbox>({ method: 'POST', path: '/sandboxes', body }, options));
  }

  /** Every sandbox in use, in the order they were made: await it for the first page, or `for await` every sandbox. */
  list(query: ListSandboxesQuery = {}, options: RequestOptions = {}): PagePromise<Sandbox> {
    return listPages<Sandbox>(this.transport, '/sandboxes', { ...query }, options);
  }

  get(sandboxId: string, options: RequestOptions = {}): ApiPromise<Sandbox> {
    return new ApiPromise(this.transport.send<Sandbox>({ method: 'GET', path: sandboxPath(sandboxId) }, options));
  }

  /** Deletes a sandbox: its keys are refused at once, and its data is removed in the background. */
  delete(sandboxId: string, options: RequestOptions = {}): ApiPromise<void> {
    return new ApiPromise(this.transport.send<void>({ method: 'DELETE', path: sandboxPath(sandboxId) }, options));
  }

  /**
   * A new sandbox for a test or a test run, with a client bound to its key, deleted when disposed:
   *
   * ```ts fragment
   * await using sandbox = await petstore.sandboxes.forTest({ name: 'checkout tests' });
   * await sandbox.client.pets.create({ name: 'Rex', categoryId: 3 }); // in the sandbox, empty when made
   * ```
   *
   * Where a scope cannot hold it (Jest's globalSetup and globalTeardown), keep it and call
   * `await sandbox[Symbol.asyncDispose]()` at the end. It expires by itself an hour after it was
   * made (`expiresIn`), so a run killed before its end leaves nothing for long.
   */
  async forTest(options: TestSandboxOptions = {}, requestOptions: RequestOptions = {}): Promise<TestSandbox> {
    const name = options.name ?? `test ${new Date().toISOString()}`;
    const created = await this.create({ name, expiresIn: options.expiresIn ?? TEST_SANDBOX_EXPIRES_IN }, requestOptions);
    return new TestSandbox(created, this.withKey(created.apiKey), this);
  }
}

/** A sandbox made by `sandboxes.forTest()`: its client, and its deletion when disposed (`await using`). */
export class TestSandbox implements AsyncDisposable {
  /** The sandbox's id (`sbx_…`). */
  readonly id: string;
  readonly name: string;
  readonly expiresAt: string;
  /** The sandbox's API key (`psk_test_…`), for what runs apart from this client (another process, a tool). */
  readonly apiKey: string;

  constructor(
    created: CreatedSandbox,
    /** A PetStore of the same options as the client that made the sandbox, with the sandbox's key: every call acts in the sandbox. */
    readonly client: PetStore,
    private readonly sandboxes: Sandboxes,
  ) {
    this.id = created.id;
    this.name = created.name;
    this.expiresAt = created.expiresAt;
    this.apiKey = created.apiKey;
  }

  /** Deletes the sandbox; one already gone (expired, or deleted before) is no error. */
  async [Symbol.asyncDispose](): Promise<void> {
    try {
      await this.sandboxes.delete(this.id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
}

const sandboxPath = (sandboxId: string) => `/sandboxes/${encodeURIComponent(sandboxId)}`;
