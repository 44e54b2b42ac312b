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

/**
 * The JSON text of `value` in two parts around the member at `path`, as JSON.stringify writes it:
 * the members before the hole and those after it each stringified as one object of their own
 * (bench:alloc: a member at a time cost every create 2 KB), on objects with no prototype so that
 * any name is an own member (`__proto__` too).
 */
function around(value: object, path: readonly string[], depth = 0): [string, string] {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    throw new TypeError('a value with toJSON has no members to write around');
  const name = path[depth];
  const members = value as Record<string, unknown>;
  const before: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const after: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let found = false;
  for (const member of Object.keys(members)) {
    if (member === name) found = true;
    else (found ? after : before)[member] = members[member];
  }
  if (!found) throw new TypeError(`no member ${name} to write the inserted id at`);
  const [innerBefore, innerAfter] = depth + 1 < path.length ? around(members[name] as object, path, depth + 1) : ['', ''];
  // As JSON.stringify writes them: `{}` when no member has JSON (undefined, a function), else `{…}`.
  const head = JSON.stringify(before);
  const tail = JSON.stringify(after);
  return [
    `${head.length > 2 ? `${head.slice(0, -1)},` : '{'}${JSON.stringify(name)}:${innerBefore}`,
    `${innerAfter}${tail.length > 2 ? `,${tail.slice(1)}` : '}'}`,
  ];
}
