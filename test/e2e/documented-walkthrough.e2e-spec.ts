import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ServiceProcess, sqliteServiceIn } from './support/service-process.js';

const run = promisify(execFile);
const API_KEY = 'walkthrough-e2e-key';

/** A documented command and what the docs say it answers: the JSON on the comment line after it, or its own trailing comment. */
interface DocumentedCall {
  readonly command: string;
  readonly answers?: unknown;
  readonly comment?: string;
}

/** The JSON a comment line starts with (`# {"available":0,…}: the order holds Rex`), or undefined. */
function jsonOf(comment: string): unknown {
  const text = comment.replace(/^#\s*/, '');
  if (!/^[[{]/.test(text)) return undefined;
  for (let end = text.length; end > 0; end--) {
    try {
      return JSON.parse(text.slice(0, end));
    } catch {
      // A shorter prefix, until the JSON alone is left.
    }
  }
  return undefined;
}

/** The curl calls of the first ```sh block after `marker` in `file`, each with what the docs say it answers. */
async function documentedCalls(file: string, marker: string): Promise<DocumentedCall[]> {
  const text = await readFile(file, 'utf8');
  const block = /^```sh\n([\s\S]*?)^```/m.exec(text.slice(text.indexOf(marker)))![1];
  const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
  const calls: DocumentedCall[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('curl ')) continue;
    const [command, comment] = line.split(/\s+#\s+/, 2);
    calls.push({ command, answers: jsonOf(lines[i + 1] ?? ''), comment });
  }
  return calls;
}

/**
 * The README's "Call it" and INTEGRATING.md's first walkthrough, run in order against a new
 * service as a reader runs them: each curl as written (its address the service's), each answer
 * compared with the one the docs print after it, and a `# 204` one answering nothing.
 */
describe('the walkthrough of the README and docs/INTEGRATING.md, run as written', () => {
  let directory: string;
  let service: ServiceProcess;
  let base: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-walkthrough-'));
    service = sqliteServiceIn(directory, API_KEY);
    base = await service.listening();
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('answers each documented call as the docs print it', async () => {
    const calls = [
      ...(await documentedCalls('README.md', '## Call it\n')),
      ...(await documentedCalls('docs/INTEGRATING.md', '## Calling it')),
      ...(await documentedCalls('docs/INTEGRATING.md', '### Pets and orders that move')),
    ];
    expect(calls.some(({ command }) => command.includes('-X DELETE'))).toBe(true);
    const outcomes = [];
    for (const { command, answers, comment } of calls) {
      const { stdout } = await run('bash', ['-c', command.replaceAll('http://localhost:3000', base)], {
        env: { PATH: process.env.PATH ?? '', KEY: API_KEY },
      });
      const answered = stdout === '' ? '' : JSON.parse(stdout);
      if (answers !== undefined) outcomes.push({ command, answered, expected: answers });
      else if (comment?.startsWith('204')) outcomes.push({ command, answered, expected: '' });
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(4);
    expect(outcomes.map(({ command, answered }) => ({ command, answered }))).toEqual(
      outcomes.map(({ command, expected }) => ({ command, answered: expected })),
    );
  }, 60_000);
});
