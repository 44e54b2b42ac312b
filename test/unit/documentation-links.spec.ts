import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const PAGES = ['README.md', 'CHANGELOG.md', 'clients/typescript/README.md', ...readdirSync('docs').map((page) => `docs/${page}`)];

/** Every link of a page to something that is not a web address: its path as written and where it leads. */
function localLinks(page: string): { link: string; target: string }[] {
  const text = readFileSync(page, 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, link]) => link)
    .filter((link) => !/^[a-z]+:/i.test(link) && !link.startsWith('#'))
    .map((link) => ({ link, target: resolve(dirname(page), link.replace(/#.*$/, '')) }));
}

describe('the documentation', () => {
  it.each(PAGES)('%s links only to files of this repository that exist', (page) => {
    for (const { link, target } of localLinks(page)) {
      expect({ link, inside: !relative(process.cwd(), target).startsWith('..'), exists: existsSync(target) }).toEqual({
        link,
        inside: true,
        exists: true,
      });
    }
  });

  it('has the interface and the product decisions in docs/, in its own words', () => {
    for (const page of ['docs/INTERFACE.md', 'docs/DECISIONS.md']) expect(readFileSync(join(page), 'utf8').length).toBeGreaterThan(1000);
  });
});
