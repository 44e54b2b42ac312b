import { ApiKey } from './auth/api-key.entity.js';
import { IdempotencyRecord } from './idempotency/idempotency-record.entity.js';
import { Pet } from './pets/pet.entity.js';
import { Order } from './store/order.entity.js';

/**
 * Every table's entity, for a DataSource made outside Nest: TypeORM's CLI (ormconfig.ts), which
 * generates migrations from them. In the application each feature module registers its own.
 */
export const ENTITIES = [Pet, ApiKey, IdempotencyRecord, Order];
