// pino serializers: access tokens never reach the logs (they are credentials in the URL path).
import type { FastifyRequest } from 'fastify';

const TOKEN_IN_PATH = /^\/api\/v1\/(?!provision(?:[/?]|$))[^/?]+/;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, '/api/v1/***');
}

export const logSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};
