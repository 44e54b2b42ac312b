import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';

const PAGES = [
  'README.md',
  'clients/typescript/README.md',
  'clients/python/README.md',
  ...readdirSync('docs')
    .filter((page) => page.endsWith('.md'))
    .map((page) => `docs/${page}`),
];

/** Each curl command of a page's ```sh blocks, its continued lines joined. */
function curlCommands(page: string): string[] {
  const blocks = [...readFileSync(page, 'utf8').matchAll(/^```sh\n([\s\S]*?)^```/gm)].map(([, block]) => block);
  return blocks.flatMap((block) => block.replace(/\\\n/g, ' ').split('\n')).filter((line) => /(^|\s)curl\s/.test(line));
}

describe('the curl commands of the docs', () => {
  // curl reads [ ] and { } in a URL as a pattern of URLs ("bad range in URL") unless told not to.
  it.each(PAGES)('in %s pass -g wherever a URL holds brackets or braces, as ?metadata[erp_id]= does', (page) => {
    const unglobbed = curlCommands(page).filter((command) => /https?:\/\/\S*[[\]{}]/.test(command) && !/\s(-g|--globoff)\s/.test(command));
    expect(unglobbed).toEqual([]);
  });

  it('show a listing filtered by metadata in the README, as curl takes it', () => {
    expect(curlCommands('README.md').filter((command) => command.includes('metadata[erp_id]=A-17'))).toEqual([
      expect.stringMatching(/^curl -s -g 'http:\/\/localhost:3000\/v1\/pets\?metadata\[erp_id\]=A-17'/),
    ]);
  });
});
