// The 501 of ThingsBoard's REST paths that dhi does not model (thingsboard-rest.ts): the not-found
// handler asks here before it answers 405 or 404. The patterns are compiled once, at boot; only
// requests no route took pay for the lookup.
import { ApiError, ErrorCode } from '../errors.js';
import { UNMODELLED_AREAS, type UnmodelledArea } from './thingsboard-rest.js';

interface Pattern {
  method: string;
  re: RegExp;
  route: string;
  area: UnmodelledArea;
}

const patternOf = (route: string, area: UnmodelledArea): Pattern => {
  const [method, path] = route.split(' ');
  const re = new RegExp(`^${path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
  return { method, re, route, area };
};

/** The 501 for a method and URL of ThingsBoard's API that dhi leaves out, or undefined. */
export function createUnmodelled(): (method: string, url: string) => ApiError | undefined {
  // A literal segment wins over a variable, as in Spring's matching: routes with fewer variables first.
  const variables = (p: Pattern) => p.route.split('{').length;
  const patterns = UNMODELLED_AREAS.flatMap((area) => area.routes.map((route) => patternOf(route, area)))
    .sort((a, b) => variables(a) - variables(b));
  return (method, url) => {
    const path = url.split('?')[0];
    const found = patterns.find((p) => p.method === method && p.re.test(path));
    return found && new ApiError(501, ErrorCode.GENERAL,
      `dhi does not model ${found.area.what}: ${found.route} (ThingsBoard's ${found.area.controller}) is not available`);
  };
}
