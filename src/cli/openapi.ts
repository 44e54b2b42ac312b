/**
 * Writes the OpenAPI document the code generates to openapi.json (or the path after --out),
 * without a server or a database: Nest's preview mode scans the modules but creates no provider.
 * `npm run openapi`; a test fails when the committed openapi.json differs from this output.
 */
// First: refuses an unsupported Node before anything else loads.
import '../supported-node.js';
import { writeFile } from 'node:fs/promises';
import { NestFactory } from '@nestjs/core';
import { AppModule, DOCUMENT_CONTRIBUTIONS } from '../app.module.js';
import { loadAppConfig } from '../config/app-config.js';
import { buildOpenApiDocument } from '../openapi/openapi.js';

const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? process.argv[outIndex + 1] : 'openapi.json';
// The defaults, not this shell's environment: the committed document must not depend on who made it.
const config = loadAppConfig({});
const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
await writeFile(out, `${JSON.stringify(buildOpenApiDocument(app, config, DOCUMENT_CONTRIBUTIONS), null, 2)}\n`);
await app.close();
process.stderr.write(`wrote ${out}\n`);
