import { randomUUID } from 'node:crypto';

/** One request of a .http file as it ran: its title (the ### line), the URL it went to, the status it got. */
export interface HttpFileOutcome {
  readonly title: string;
  readonly url: string;
  readonly status: number;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/**
 * Runs a .http file's requests in order, as VS Code's REST Client (`rest-client`) or a JetBrains
 * IDE's HTTP Client (`jetbrains`) would, for what our files use of them: `@name = value`
 * variables (those in `overrides` as the user would have set them), `{{$guid}}` / `{{$uuid}}`, and
 * what carries a value to a later request: `# @name` with `{{name.response.body.$.field}}` (or
 * `$.field.member`) and
 * `{{name.response.headers.Name}}` (REST Client), or a response handler `> {% client.global.set(…) %}`
 * reading `response.body` and `response.headers.valueOf(name)` (JetBrains). A variable it cannot
 * fill is an error, as the tools would send it unfilled. A request whose comment asks to be sent a
 * second after the one before (`# Send it a second after …`: the request log's entry of a failure)
 * is sent a second later, as the person following the file would send it; neither tool can wait.
 */
export async function runHttpFile(
  text: string,
  dialect: 'rest-client' | 'jetbrains',
  overrides: Record<string, string>,
): Promise<HttpFileOutcome[]> {
  const variables = new Map<string, string>();
  const named = new Map<string, Answer>();
  const outcomes: HttpFileOutcome[] = [];
  const [preamble, ...blocks] = text.split(/^###/m);
  readVariables(preamble, variables);
  for (const [name, value] of Object.entries(overrides)) variables.set(name, value);

  const fill = (raw: string) =>
    raw.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, reference: string) => {
      if (reference === (dialect === 'rest-client' ? '$guid' : '$uuid')) return randomUUID();
      const pointer = /^(\w+)\.response\.(body\.\$|headers)\.([\w.-]+)$/.exec(reference);
      if (pointer && dialect === 'rest-client') {
        const answer = named.get(pointer[1]);
        if (!answer) throw new Error(`{{${reference}}}: no request named ${pointer[1]} ran before`);
        if (pointer[2] === 'body.$')
          return String(pointer[3].split('.').reduce((value, field) => (value as Record<string, unknown>)[field], answer.body));
        const header = answer.headers.get(pointer[3]);
        if (header === null) throw new Error(`{{${reference}}}: the answer to ${pointer[1]} has no ${pointer[3]} header`);
        return header;
      }
      const value = variables.get(reference);
      if (value === undefined) throw new Error(`{{${reference}}} is no variable the ${dialect} file sets`);
      return value;
    });

  for (const block of blocks) {
    const [titleLine, ...lines] = block.split('\n');
    const handlerAt = lines.findIndex((line) => line.startsWith('> {%'));
    const handler =
      handlerAt === -1
        ? undefined
        : lines
            .slice(handlerAt)
            .join('\n')
            .replace(/^> \{%/, '')
            .replace(/%\}\s*$/, '');
    const request = handlerAt === -1 ? lines : lines.slice(0, handlerAt);
    const name = request.map((line) => /^#\s*@name\s+(\w+)/.exec(line)?.[1]).find(Boolean);
    if (request.some((line) => /^#\s*Send it a second after\b/.test(line))) await new Promise((wake) => setTimeout(wake, 1_000));
    const content = request.filter((line) => !/^\s*(#|\/\/)/.test(line));
    while (content.length > 0 && content[0].trim() === '') content.shift();
    const [requestLine, ...rest] = content;
    const blank = rest.findIndex((line) => line.trim() === '');
    const headerLines = blank === -1 ? rest : rest.slice(0, blank);
    const body =
      blank === -1
        ? ''
        : rest
            .slice(blank + 1)
            .join('\n')
            .trim();
    const [method, target] = fill(requestLine).trim().split(/\s+/);
    const headers = Object.fromEntries(
      headerLines
        .filter((line) => line.includes(':'))
        .map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).trim(), fill(line.slice(at + 1).trim())];
        }),
    );
    const response = await fetch(target, { method, headers, body: body === '' ? undefined : fill(body) });
    const text = await response.text();
    const answer = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    outcomes.push({ title: titleLine.trim(), url: target, status: response.status });
    if (name) named.set(name, answer);
    if (handler) runHandler(handler, answer, variables);
  }
  return outcomes;
}

function readVariables(text: string, into: Map<string, string>): void {
  for (const match of text.matchAll(/^@(\w+)\s*=\s*(.*)$/gm)) into.set(match[1], match[2].trim());
}

/** A JetBrains response handler, given what it reads: `client.global` and `response`. */
function runHandler(code: string, answer: Answer, variables: Map<string, string>): void {
  const client = {
    global: { set: (name: string, value: unknown) => variables.set(name, String(value)), get: (name: string) => variables.get(name) },
  };
  const response = { status: answer.status, body: answer.body, headers: { valueOf: (name: string) => answer.headers.get(name) } };
  new Function('client', 'response', code)(client, response);
}
