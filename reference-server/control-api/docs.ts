// Swagger UI at /docs, rendering THE contract (the document loadContract() parsed), served with
// this server's own origin so that "Try it out" reaches it.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';

export async function registerDocs(app: FastifyInstance, document: OpenAPIV3_1.Document): Promise<void> {
  // @fastify/swagger's types stop at OpenAPI 3.0; it serves a 3.1 document unchanged.
  await app.register(swagger, { mode: 'static', specification: { document: document as unknown as OpenAPIV3.Document } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecificationClone: true,
    transformSpecification: (spec, request) => ({
      ...spec,
      servers: [{ url: `${request.protocol}://${request.host}`, description: 'this server' }],
    }),
  });
}
