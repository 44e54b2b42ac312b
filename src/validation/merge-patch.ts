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
