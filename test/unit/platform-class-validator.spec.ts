import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage, IsIn, IsInt, IsOptional, Min, validateSync } from 'class-validator';
import { cacheValidationMetadata, validatedPropertyNames } from '../../src/platform/class-validator-metadata.js';
import { installedVersion } from './support/installed-version.js';

class Base {
  @IsOptional()
  @IsInt()
  @Min(1)
  limit?: unknown;
}

class Query extends Base {
  @IsOptional()
  @IsIn(['a', 'b'])
  status?: unknown;
}

const query = (fields: Partial<Query>) => Object.assign(new Query(), fields);
const failures = (fields: Partial<Query>) => validateSync(query(fields)).map(({ property }) => property);

describe('cacheValidationMetadata', () => {
  const storage = getMetadataStorage();
  const own = storage.getTargetValidationMetadatas(Query, undefined as unknown as string, false, false);

  it('answers what class-validator works out, inherited rules included, and the same array every time after', () => {
    cacheValidationMetadata();
    cacheValidationMetadata();
    const first = storage.getTargetValidationMetadatas(Query, undefined as unknown as string, false, false);
    expect(first.map(({ propertyName, name }) => `${propertyName}:${name}`).sort()).toEqual(
      own.map(({ propertyName, name }) => `${propertyName}:${name}`).sort(),
    );
    expect(storage.getTargetValidationMetadatas(Query, undefined as unknown as string, false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
  });

  it('keeps validating as before: every rule of the class and of the one it extends', () => {
    cacheValidationMetadata();
    expect(failures({ limit: 5, status: 'a' })).toEqual([]);
    expect(failures({ limit: 0, status: 'a' })).toEqual(['limit']);
    expect(failures({ limit: 2, status: 'c' })).toEqual(['status']);
    expect(failures({ limit: 'x', status: 'c' }).sort()).toEqual(['limit', 'status']);
  });

  it('passes a validation with groups through, uncached', () => {
    cacheValidationMetadata();
    const grouped = storage.getTargetValidationMetadatas(Query, undefined as unknown as string, false, false, ['g']);
    expect(storage.getTargetValidationMetadatas(Query, undefined as unknown as string, false, false, ['g'])).not.toBe(grouped);
  });
});

/**
 * What src/platform/class-validator-metadata.ts assumes of class-validator: validateSync asks the
 * shared storage's getTargetValidationMetadatas (no schema, no groups) and groups that very answer
 * by property, so that caching both serves every validation; the storage's metadata names the
 * properties the whitelist lets through. A new version may do otherwise: check, then move the pin.
 */
describe('class-validator, as src/platform/class-validator-metadata.ts uses it', () => {
  it('is the version the cache was written for', () => {
    expect(installedVersion('class-validator')).toBe('0.15.1');
  });

  it('looks a class up through the shared storage and groups what the lookup answered', () => {
    const storage = getMetadataStorage();
    const lookUp = storage.getTargetValidationMetadatas;
    const group = storage.groupByPropertyName;
    const looked: unknown[][] = [];
    const grouped: unknown[] = [];
    let answered: unknown;
    storage.getTargetValidationMetadatas = (...args) => {
      looked.push(args);
      return (answered = lookUp.apply(storage, args));
    };
    storage.groupByPropertyName = (metadatas) => {
      grouped.push(metadatas);
      return group.call(storage, metadatas);
    };
    try {
      validateSync(query({ limit: 1 }), { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true });
    } finally {
      storage.getTargetValidationMetadatas = lookUp;
      storage.groupByPropertyName = group;
    }
    expect(looked).toEqual([[Query, undefined, false, false, undefined]]);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toBe(answered);
  });

  it('lists the properties a class validates, its own then those it inherits, as its whitelist knows them', () => {
    expect([...validatedPropertyNames(Query)]).toEqual(['status', 'limit']);
    const refused = validateSync(Object.assign(query({ limit: 1, status: 'a' }), { other: 1 }), {
      whitelist: true,
      forbidNonWhitelisted: true,
    })
      .filter(({ constraints }) => constraints !== undefined && 'whitelistValidation' in constraints)
      .map(({ property }) => property);
    expect(refused).toEqual(['other']);
  });
});
