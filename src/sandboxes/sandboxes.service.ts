import { Injectable } from '@nestjs/common';
import { ApiKeyIssuer } from '../auth/api-key-issuer.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { SANDBOX_KEY_SCOPES } from '../auth/scopes.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { isWriteConflict, pauseAfterWriteConflict, WriteKeptConflictingException } from '../database/write-conflicts.js';
import { Environment } from '../environments/environment.js';
import { readPage, type Page } from '../pagination/page.js';
import type { PageQuery } from '../pagination/page-query.dto.js';
import { CreatedSandboxDto, DEFAULT_EXPIRES_IN, type NewSandboxDto, SandboxDto } from './dto/sandbox.dto.js';
import { SandboxRemover } from './sandbox-remover.js';
import { SandboxLimitReachedException, SandboxNotFoundException } from './sandboxes.exceptions.js';
import { type StoredSandbox, SandboxesRepository } from './sandboxes.repository.js';

/** How many times a create that lost a deadlock to another instance's counts again. */
const CREATE_ATTEMPTS = 5;

/**
 * Marks the sandbox with this public id deleted at `now` and revokes its keys, in one transaction;
 * answers it and its keys' ids, or undefined when no sandbox in use has the id. Its rows are the
 * remover's. The API (SandboxesService) and the operator's tool (cli/sandboxes.ts) both delete so.
 */
export async function markSandboxDeleted(
  sandboxes: SandboxesRepository,
  issuer: ApiKeyIssuer,
  id: string,
  now: Date,
): Promise<{ sandbox: StoredSandbox; keyIds: number[] } | undefined> {
  return sandboxes.transaction(async (transaction) => {
    const sandbox = await sandboxes.findActive(id, now, transaction);
    // Of two deletes at once, the second's update finds the mark and changes nothing.
    if (!sandbox || !(await sandboxes.markDeleted(sandbox.rowId, now, transaction))) return undefined;
    return { sandbox, keyIds: await issuer.revokeEnvironment(Environment.of(sandbox.rowId), transaction) };
  });
}

/**
 * The sandboxes of the API (DECISIONS "Sandboxes"): made with a key of their own, at most
 * SANDBOXES_MAX in use at once; listed and read while in use; deleted at once for their keys and
 * in the background for their rows (SandboxRemover). Only live keys reach it (ScopeGuard).
 */
@Injectable()
export class SandboxesService {
  private readonly max: number;
  /** This instance's creates, one after another: they count and take the same rows, so at once they would only wait on each other. */
  private creating: Promise<unknown> = Promise.resolve();

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
    private readonly sandboxes: SandboxesRepository,
    private readonly issuer: ApiKeyIssuer,
    private readonly keys: ApiKeyService,
    private readonly remover: SandboxRemover,
  ) {
    this.max = config.sandboxes.max;
  }

  /** A new sandbox and its key, which stops when it expires; 409 when SANDBOXES_MAX are in use. */
  create({ name, expiresIn = DEFAULT_EXPIRES_IN }: NewSandboxDto): Promise<CreatedSandboxDto> {
    const created = this.creating.then(() => this.createNow(name, expiresIn));
    this.creating = created.catch(() => undefined);
    return created;
  }

  /**
   * Counts the sandboxes in use, holding them (SandboxesRepository.holdActive), and makes the new one
   * and its key in the same transaction: no count can miss a create that committed, so however many
   * instances create at once, no more than SANDBOXES_MAX are ever in use.
   */
  private async createNow(name: string, expiresIn: number): Promise<CreatedSandboxDto> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sandboxes.transaction(async (transaction) => {
          const now = this.clock.now();
          if ((await this.sandboxes.holdActive(new Date(now), transaction)) >= this.max) throw new SandboxLimitReachedException(this.max);
          const sandbox = await this.sandboxes.insert(
            { name, createdAt: new Date(now), expiresAt: new Date(now + expiresIn * 1000) },
            transaction,
          );
          const { key } = await this.issuer.create(
            name,
            { scopes: SANDBOX_KEY_SCOPES, environment: Environment.of(sandbox.rowId), expiry: { at: sandbox.expiresAt } },
            transaction,
          );
          return CreatedSandboxDto.made(sandbox, key);
        });
      } catch (error) {
        if (!isWriteConflict(error)) throw error;
        if (attempt === CREATE_ATTEMPTS) throw new WriteKeptConflictingException();
        await pauseAfterWriteConflict(attempt);
      }
    }
  }

  async list(query: PageQuery): Promise<Page<SandboxDto>> {
    const now = new Date(this.clock.now());
    // Paged by the row id; the public id is random.
    const page = await readPage('sandboxes', query, {}, async (afterId, limit) =>
      (await this.sandboxes.activePage(now, afterId, limit)).map((sandbox) => ({ id: sandbox.rowId, sandbox })),
    );
    return page.map(({ sandbox }) => SandboxDto.from(sandbox));
  }

  async get(id: string): Promise<SandboxDto> {
    const sandbox = await this.sandboxes.findActive(id, new Date(this.clock.now()));
    if (!sandbox) throw new SandboxNotFoundException(id);
    return SandboxDto.from(sandbox);
  }

  /** Deletes the sandbox: its keys refused at once here and within a second everywhere, its rows removed in the background. */
  async delete(id: string): Promise<void> {
    const deleted = await markSandboxDeleted(this.sandboxes, this.issuer, id, new Date(this.clock.now()));
    if (!deleted) throw new SandboxNotFoundException(id);
    await this.keys.changed(deleted.keyIds);
    this.remover.wake();
  }
}
