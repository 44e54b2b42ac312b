// First: refuses an unsupported Node before anything else loads.
import './src/supported-node.js';
import { loadAppConfig } from './src/config/app-config.js';
import { buildDataSourceOptions, createDataSource } from './src/database/data-source-options.js';
import { ENTITIES } from './src/entities.js';

/**
 * TypeORM's CLI (npm run migration:run | migration:revert | migration:generate) talks to the
 * database the service is configured for, through the same options builder the service uses.
 */
export default createDataSource(buildDataSourceOptions(loadAppConfig(process.env).database, ENTITIES));
