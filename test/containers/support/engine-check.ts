import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Jest's global set-up for `npm run test:containers`: a missing engine or compose plugin is one
 * clear line and a failed run, never a hang (each question has 20 s).
 */
export default async function engineCheck(): Promise<void> {
  const missing: string[] = [];
  await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 }).catch((error: { code?: string; stderr?: string }) =>
    missing.push(
      error.code === 'ENOENT'
        ? 'no docker command on PATH'
        : `no Docker engine answers (${error.stderr?.trim().split('\n').at(-1) ?? 'docker info failed'})`,
    ),
  );
  if (missing.length === 0)
    await run('docker', ['compose', 'version'], { timeout: 20_000 }).catch(() =>
      missing.push('no compose v2 plugin (`docker compose version` fails)'),
    );
  if (missing.length > 0)
    throw new Error(
      `test:containers cannot run: ${missing.join('; ')}. ` +
        'Install Docker with compose v2, or on a machine without a registry run `bash scripts/local-images.sh` ' +
        '(it installs and starts both) and `npm run test:containers:local`.',
    );
}
