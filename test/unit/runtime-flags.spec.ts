import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const flagsOf = (command: string) => /node ((?:--\S+ )*)dist\/src\/main\.js/.exec(command)?.[1].trim().split(' ');

describe("the service's Node flags (the memory bounds)", () => {
  const production = flagsOf(scripts['start:prod']);

  it('cap the old generation and the young one, and leave Maglev out', () => {
    expect(production).toEqual(['--max-old-space-size=128', '--max-semi-space-size=16', '--no-maglev']);
  });

  it('are the same for npm start and for the image', () => {
    expect(flagsOf(scripts.start)).toEqual(production);
    const command = /^CMD \[(.*)\]$/m.exec(readFileSync('Dockerfile', 'utf8'))![1];
    expect(flagsOf((JSON.parse(`[${command}]`) as string[]).join(' '))).toEqual(production);
  });
});
