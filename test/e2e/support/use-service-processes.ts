import { afterEach } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from './service-process.js';

// Apart from service-process.ts so that scripts outside Jest (npm run soak) can start services:
// @jest/globals has no afterEach outside a Jest run.
/**
 * For a describe block of process tests: `spawn(env)` starts the service in a fresh working
 * directory (on the SQLite default unless env says otherwise); each is stopped and its directory
 * removed after the test.
 */
export function useServiceProcesses(): { spawn(env: Record<string, string>): Promise<ServiceProcess & { directory: string }> } {
  const started: { service: ServiceProcess; directory: string }[] = [];
  afterEach(async () => {
    for (const { service, directory } of started.splice(0)) {
      await service.stop();
      await rm(directory, { recursive: true, force: true });
    }
  });
  return {
    async spawn(env) {
      const directory = await mkdtemp(join(tmpdir(), 'petstore-process-'));
      const service = new ServiceProcess({ HOST: '127.0.0.1', PORT: '0', ...env }, directory);
      started.push({ service, directory });
      return Object.assign(service, { directory });
    },
  };
}
