import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Metadatas = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

/**
 * class-validator works out a class's validation metadata again on every validation (filters and
 * closures over every registered class: typestack/class-validator#2686), though it is complete once
 * the class has loaded and never changes after. This keeps what it worked out, per class, for the
 * validations this service runs (no groups, no schema), and its grouping by property; any other
 * call is passed through. Idempotent; createApp calls it. test/unit/platform-class-validator.spec.ts
 * holds it to the class-validator version it was written for, and to how validateSync uses the two.
 * Measured: without it a listing allocates 3.1 to 3.6 KB more a request (5%), a create 2.1 to 2.8 KB (3%).
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage();
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const byTarget = new WeakMap<object, Metadatas[]>();
  const byMetadatas = new WeakMap<Metadatas, Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema !== undefined || (groups && groups.length > 0)) return lookUp(target, schema, always, strictGroups, groups);
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = []));
    const slot = (always ? 2 : 0) + (strictGroups ? 1 : 0);
    return (forTarget[slot] ??= lookUp(target, schema, always, strictGroups, groups));
  };
  // Called with what the lookup above answered; the executor only reads what it gets.
  storage.groupByPropertyName = (metadatas) => {
    let grouped = byMetadatas.get(metadatas);
    if (!grouped) byMetadatas.set(metadatas, (grouped = group(metadatas)));
    return grouped;
  };
}

const cached = new WeakSet<object>();

/**
 * The names of the properties `metatype` validates, its own then those it inherits, as class-validator
 * orders its metadata; worked out once per class.
 * Measured: class-validator lists a class's properties nowhere public (its whitelist only judges a name given).
 */
export function validatedPropertyNames(metatype: new () => object): ReadonlySet<string> {
  let names = propertyNames.get(metatype);
  if (!names) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    propertyNames.set(metatype, (names = new Set(metadatas.map(({ propertyName }) => propertyName))));
  }
  return names;
}

const propertyNames = new WeakMap<object, ReadonlySet<string>>();
