// First: refuses an unsupported Node before anything else loads.
import './src/supported-node.js';
import { DataSource } from 'typeorm';
import { loadAppConfig } from './src/config/app-config.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';
import { ENTITIES } from './src/entities.js';

/**
 * TypeORM's CLI (npm run migration:run | migration:revert | migration:generate) talks to the
 * database the service is configured for, through the same options builder the service uses.
 */
export default new DataSource(buildDataSourceOptions(loadAppConfig(process.env).database, ENTITIES));
