/**
 * A statement as a repository writes it out: a constant of the repository, and its values. A
 * statement of a write (UnitOfWork) may insert a row whose id later statements and the answer
 * need: it names that id (`inserts`), and they hold the name (an InsertedId, or a JsonWithInsertedId)
 * where the value goes. Ids are found by name, never by the order of the statements.
 */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /** The name of the id this INSERT generates. */
  readonly inserts?: InsertedId;
}

/** The id an INSERT of the same write generates, by name: a value of a later statement until the database knows it. */
export class InsertedId {
  constructor(readonly name: string) {
    if (!/^[a-z][a-z_]{0,30}$/.test(name)) throw new RangeError(`"${name}" is no name for an inserted id`);
  }
}

/**
 * A value stored as JSON text in the write that inserts the row it describes, whose id (at a path)
 * only the database knows until then: the text in two parts, before and after the place the id goes.
 * The parts are built from the value's structure, member by member, never found by searching text,
 * so nothing a client sends (a name holding a number, say) can move the id or be rewritten.
 * `withId(n)` is exactly JSON.stringify of the value with `n` at the path: what the 201 answers is
 * what is stored.
 */
export class JsonWithInsertedId {
  readonly before: string;
  readonly after: string;

  /** `value` as JSON text around its member at `path` (`['data', 'object', 'id']`), which must exist; there goes `id`. */
  constructor(
    value: object,
    path: readonly [string, ...string[]],
    readonly id: InsertedId,
  ) {
    [this.before, this.after] = around(value, path);
  }

  withId(id: number): string {
    return `${this.before}${id}${this.after}`;
  }
}

/** The JSON text of `value` in two parts around the member at `path`, as JSON.stringify writes it. */
function around(value: object, [name, ...rest]: readonly string[]): [string, string] {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    throw new TypeError('a value with toJSON has no members to write around');
  const members: string[] = [];
  let hole = -1;
  let inner: [string, string] = ['', ''];
  for (const [member, memberValue] of Object.entries(value)) {
    if (member === name) {
      hole = members.length;
      if (rest.length > 0) inner = around(memberValue as object, rest);
      members.push(`${JSON.stringify(member)}:`);
      continue;
    }
    // As JSON.stringify: a member whose value has no JSON (undefined, a function) is left out.
    const json = JSON.stringify(memberValue);
    if (json !== undefined) members.push(`${JSON.stringify(member)}:${json}`);
  }
  if (hole < 0) throw new TypeError(`no member ${name} to write the inserted id at`);
  const following = members.slice(hole + 1);
  return [`{${members.slice(0, hole + 1).join(',')}${inner[0]}`, `${inner[1]}${following.length > 0 ? `,${following.join(',')}` : ''}}`];
}
