/**
 * A value stored as JSON text in the transaction that inserts the row it describes, whose id (at a
 * path) only the database knows until then: the text in two parts, before and after the place the
 * database writes that id (SqlDialect.jsonWithInsertedId). The parts are built from the value's
 * structure, member by member, never found by searching text, so nothing a client sends (a name
 * holding a number, say) can move the id or be rewritten. `withId(n)` is exactly JSON.stringify of
 * the value with `n` at the path: what the 201 answers is what is stored.
 */
export class JsonWithInsertedId {
  private constructor(
    readonly before: string,
    readonly after: string,
  ) {}

  /** `value` as JSON text around its member at `path` (`['data', 'object', 'id']`), which must exist. */
  static of(value: object, path: readonly [string, ...string[]]): JsonWithInsertedId {
    const [before, after] = around(value, path);
    return new JsonWithInsertedId(before, after);
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
