import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage, IsIn, IsInt, IsOptional, Min, validateSync } from 'class-validator';
import { cacheValidationMetadata } from '../../src/validation/validation-metadata.js';

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
