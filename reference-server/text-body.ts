// Bodies a Spring controller binds as a String (`@RequestBody Optional<String>`, e.g. an API key's
// description): the text as sent, whatever the Content-Type, since Spring's String converter comes
// before Jackson. Their routes live in a context of their own whose parser keeps the text; the rest
// of the server parses every body as JSON (app.ts).
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

export async function registerTextBodyRoutes(app: FastifyInstance, registerRoutes: (context: FastifyInstance) => void): Promise<void> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  await app.register(async (context) => {
    context.removeAllContentTypeParsers();
    context.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
      try {
        done(null, utf8.decode(body));
      } catch {
        done(badRequest('Invalid body: the text is not valid UTF-8'), undefined);
      }
    });
    registerRoutes(context);
  });
}
