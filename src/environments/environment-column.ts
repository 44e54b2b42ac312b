import { Column, VirtualColumn } from 'typeorm';

/**
 * The environment a row belongs to (Environment.id: 0 live, a sandbox's id otherwise). Written with
 * every insert and named by every statement on its table (confined-statements.ts); never answered
 * as such: an answer says `livemode` (LivemodeColumn).
 */
export function EnvironmentColumn(): PropertyDecorator {
  return Column({ type: 'bigint', default: 0 });
}

/**
 * An answer's `livemode`, read with the row: whether its environment is live. Nothing stores it
 * (TypeORM's virtual column: no column of the table); Table selects it as `environment = 0`.
 */
export function LivemodeColumn(): PropertyDecorator {
  return VirtualColumn({ type: 'boolean', query: (alias) => `${alias ? `${alias}.` : ''}environment = 0` });
}
