// OpenAPI path templates (`/api/device/{deviceId}`) matched against concrete URL paths: the server's
// 405 and 501 lookups, the tests' contract check and the calibration target build their regexes
// here, once, at boot.

/**
 * The regex of a path template: a `{param}` is one segment, everything else literal. `capture`: each
 * parameter is a capture group, in the template's order (the calibration target reads them).
 */
export const pathRegex = (template: string, { capture = false } = {}): RegExp =>
  new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, capture ? '([^/]+)' : '[^/]+')}$`);

/**
 * Sort order of templates by their parameters, fewest first: with the first match taken, a literal
 * segment wins over a parameter, as in Spring's and Fastify's routers (/deviceProfile/names before
 * /deviceProfile/{id}).
 */
export const literalsFirst = (a: string, b: string): number => a.split('{').length - b.split('{').length;
