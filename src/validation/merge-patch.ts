/** The metadata @MergePatch sets and ApiValidationPipe reads: the fields a null may not remove. */
const MERGE_PATCH_FIELDS = 'petstore:merge-patch-fields';

/**
 * Makes a DTO the body of a PATCH (a JSON Merge Patch, RFC 7396) of what a create takes: put it on a
 * `PartialType(NewX, { skipNullProperties: false })`, whose fields are then optional and each valid
 * as on create. In a Merge Patch a null removes a field, which these `fields` cannot lose: the
 * validation pipe refuses a null by name ("leave it out to keep it as it is"); a field not listed
 * may be null (metadata: removed by it). The document's side, no defaults (a field left out is
 * unchanged), is the document builder's (openapi/).
 */
export function MergePatch(fields: readonly string[]): ClassDecorator {
  return (target) => Reflect.defineMetadata(MERGE_PATCH_FIELDS, fields, target);
}

/** The fields a null may not remove, when `metatype` is a Merge Patch (@MergePatch). */
export function fieldsNullMayNotRemove(metatype: object): readonly string[] | undefined {
  return Reflect.getMetadata(MERGE_PATCH_FIELDS, metatype) as readonly string[] | undefined;
}

/** The message for a null that would remove such a field. */
export const nullRefused = (field: string) => `${field} must not be null: leave it out to keep it as it is`;

/**
 * RFC 7396's MergePatch(target, patch): the members of an object patch replace the target's, a
 * null removes one, and an object merges into an object; anything else replaces the target whole.
 * `undefined` (a field the patch left out) leaves it as it is. Every object it makes has no
 * prototype, so that a member is data whatever its name: `__proto__`, `constructor` or `toString`
 * (metadata keys like any other) is set, merged and removed as `erp_id` is, never an inherited property.
 */
export function mergePatch<T extends object, P extends object | null | undefined>(target: T, patch: P): MergePatched<T, P> {
  return merged(target, patch) as MergePatched<T, P>;
}

/**
 * What mergePatch makes of a `T` with a patch `P`, as it is: the target itself when the patch is
 * absent, null when it is null, and else each member the patch may set to null possibly removed
 * (`| undefined`), so that the compiler finds the code that must put a cleared field back as null
 * (ResourceShape.merge does, field by field).
 */
export type MergePatched<T, P> =
  | (undefined extends P ? T : never)
  | (null extends P ? null : never)
  | (P extends object ? { [K in keyof T]: K extends keyof P ? (null extends P[K] ? T[K] | undefined : T[K]) : T[K] } : never);

function merged(target: unknown, patch: unknown): unknown {
  if (patch === undefined) return target;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const members = new Map<string, unknown>(
    typeof target === 'object' && target !== null && !Array.isArray(target) ? Object.entries(target) : [],
  );
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) members.delete(name);
    else members.set(name, merged(members.get(name), value));
  }
  return withoutPrototype(Object.fromEntries(members));
}

/**
 * `object`, its prototype taken away: every name is then data, `__proto__` included (which
 * JSON.parse and Object.fromEntries make an own member). Not `Object.create(null)`, whose object V8
 * keeps as a dictionary that JSON.stringify writes on its slow path (a listPets page 1.5 times as
 * long to write; issue 56).
 */
export function withoutPrototype<T extends object>(object: T): T {
  return Object.setPrototypeOf(object, null) as T;
}
