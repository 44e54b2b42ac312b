import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config.js';

export const API_PREFIX = '/v1';

/** The OpenAPI document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Pet Store')
    .setDescription(
      'List, add and read the animals of the pet store. Every operation needs an API key sent as ' +
        '`Authorization: Bearer <API_KEY>`. Errors are always an `Error` object.',
    )
    .setVersion('1.0.0')
    .addTag('pets', 'The animals of the store.')
    .addTag('store', 'Orders and inventory.')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key of the service.' },
      'bearer',
    )
    .addSecurityRequirements('bearer');
  for (const server of servers(config)) builder.addServer(server.url, server.description);

  const info = builder.build();
  // DocumentBuilder.setLicense insists on a URL; a proprietary service has none to give.
  info.info.license = { name: 'Proprietary' };
  const document = SwaggerModule.createDocument(app, info);
  // The servers end in /v1 (spec §9), so the paths are written relative to it.
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .map(([path, item]) => [path.slice(API_PREFIX.length), item]),
  );
  closeRequestBodies(document);
  return document;
}

/** Request bodies are strict (a property the schema lacks is a 400), and the document says so. */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.post, item.put, item.patch, item.delete]) {
      const body = operation?.requestBody;
      const ref = body && 'content' in body ? body.content['application/json']?.schema : undefined;
      const schema = ref && '$ref' in ref ? schemas[ref.$ref.replace('#/components/schemas/', '')] : undefined;
      if (schema && !('$ref' in schema)) schema.additionalProperties = false;
    }
  }
}

function servers(config: AppConfig): { url: string; description: string }[] {
  const listed = [
    config.publicBaseUrl && { url: config.publicBaseUrl, description: 'Production' },
    config.stagingBaseUrl && { url: config.stagingBaseUrl, description: 'Staging' },
  ].filter((server) => !!server);
  // Relative to the document's own address: the running server.
  return listed.length > 0 ? listed : [{ url: API_PREFIX, description: 'This server' }];
}

/** Serves the document as JSON and YAML and Swagger UI, all without a key. */
export function serveOpenApiDocument(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
  });
}
