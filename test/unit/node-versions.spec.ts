import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { isSupportedNode, SUPPORTED_NODE } from '../../src/supported-node.js';

type Manifest = { engines?: { node?: string } };
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest & { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Manifest> };
const claimed = new semver.Range(manifest.engines.node);

/** The first and a late release of every line `engines` claims: npm warns (EBADENGINE) on neither. */
const versions = claimed.set.flatMap((comparators) => {
  const first = semver.minVersion(comparators.map(String).join(' '))!;
  return [first.version, `${first.major}.999.0`];
});

describe('the Node versions the project claims', () => {
  it('are the maintained lines 22, 24 and 26, and not the end-of-life 20', () => {
    expect(versions.map((version) => semver.major(version))).toEqual([22, 22, 24, 24, 26, 26]);
    expect(semver.satisfies('20.20.2', claimed)).toBe(false);
  });

  it.each(versions)('%s satisfies the engines of every locked package', (version) => {
    const refusing = Object.entries(lock.packages)
      .filter(([, { engines }]) => engines?.node && !semver.satisfies(version, engines.node))
      .map(([path, { engines }]) => `${path.replace(/^.*node_modules\//, '')} (${engines!.node})`);
    expect(refusing).toEqual([]);
  });

  it('are what every entry point checks before it loads anything else (src/supported-node.ts)', () => {
    expect(SUPPORTED_NODE).toBe(manifest.engines.node);
    for (const version of [
      '20.20.2',
      '22.22.2',
      '22.22.3',
      '22.30.0',
      '23.11.0',
      '24.14.9',
      '24.15.0',
      '24.21.0',
      '25.1.0',
      '26.0.0',
      '27.0.0',
    ]) {
      expect({ version, supported: isSupportedNode(version) }).toEqual({ version, supported: semver.satisfies(version, claimed) });
    }
  });

  it('agree with the Docker image, built on the current LTS (24) in both stages, here and in the compose file', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(/^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1]).toBe('24');
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map(([, image]) => image)).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
    expect(readFileSync('docker-compose.yml', 'utf8')).toContain('NODE_IMAGE: ${NODE_IMAGE:-node:24-bookworm-slim}');
  });
});
