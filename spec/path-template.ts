// OpenAPI path templates (`/api/device/{deviceId}`) matched against concrete URL paths: the server's
// 405 and 501 lookups and the tests' contract check build their regexes here, once, at boot.

/** The regex of a path template: a `{param}` is one segment, everything else literal. */
export const pathRegex = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

/**
 * Sort order of templates by their parameters, fewest first: with the first match taken, a literal
 * segment wins over a parameter, as in Spring's and Fastify's routers (/deviceProfile/names before
 * /deviceProfile/{id}).
 */
export const literalsFirst = (a: string, b: string): number => a.split('{').length - b.split('{').length;
