import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const PAGES = [
  'README.md',
  'CHANGELOG.md',
  'clients/typescript/README.md',
  'clients/python/README.md',
  ...readdirSync('docs').map((page) => `docs/${page}`),
];

/** Every link of a page to something that is not a web address: as written, the file it leads to, and its anchor. */
function localLinks(page: string): { link: string; target: string; anchor?: string }[] {
  const text = withoutCode(readFileSync(page, 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, link]) => link)
    .filter((link) => !/^[a-z]+:/i.test(link))
    .map((link) => {
      const [path, anchor] = link.split('#');
      return { link, target: path ? resolve(dirname(page), path) : resolve(page), anchor };
    });
}

/** The page without its code blocks, whose brackets and hashes are not Markdown. */
function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchors GitHub gives a Markdown page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The first `sh` block under a README heading: the commands it gives for that step, one per line. */
function commandsUnder(heading: string): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

describe('the documentation', () => {
  it.each(PAGES)('%s links only to files of this repository that exist, and to anchors they have', (page) => {
    for (const { link, target, anchor } of localLinks(page)) {
      expect({ link, inside: !relative(process.cwd(), target).startsWith('..'), exists: existsSync(target) }).toEqual({
        link,
        inside: true,
        exists: true,
      });
      if (anchor !== undefined && target.endsWith('.md'))
        expect({ link, anchored: anchorsOf(target).has(anchor) }).toEqual({ link, anchored: true });
    }
  });

  it('has the interface and the product decisions in docs/, in its own words', () => {
    for (const page of ['docs/INTERFACE.md', 'docs/DECISIONS.md']) expect(readFileSync(join(page), 'utf8').length).toBeGreaterThan(1000);
  });

  it('keeps the README a newcomer reads in five minutes: at most 200 lines', () => {
    expect(readFileSync('README.md', 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it.each(['Start it', 'Test it'])('gives under %s the commands CI runs, as they stand', (heading) => {
    const commands = commandsUnder(heading);
    expect(commands.length).toBeGreaterThan(0);
    const ci = readFileSync('.ci/run', 'utf8').split('\n');
    for (const command of commands) expect({ command, inCi: ci.some((line) => line.includes(command)) }).toEqual({ command, inCi: true });
  });
});
