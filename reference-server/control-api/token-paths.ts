// Which paths ThingsBoard's security filter asks a token for (ThingsboardSecurityConfiguration): every
// path under /api/ but the device API, the login, token refresh and other entry points it skips, and
// the non-token paths (activation, password reset, public images, ...). An unauthenticated request
// to such a path is 401 before anything else is decided, so that the 404, 405 and 501 of paths no
// route took are given only to a caller with a token, as in ThingsBoard.

/** TOKEN_BASED_AUTH_ENTRY_POINT's skipped paths, Ant patterns as regexes (`**` any rest, `*` one segment). */
const SKIPPED = [
  // NON_TOKEN_BASED_AUTH_ENTRY_POINTS under /api
  /^\/api\/noauth(\/|$)/, /^\/api\/license(\/|$)/, /^\/api\/images\/public(\/|$)/,
  // the other skipped entry points
  /^\/api\/ws(\/|$)/, /^\/api\/auth\/token$/, /^\/api\/auth\/login$/, /^\/api\/auth\/login\/public$/,
  /^\/api\/v1(\/|$)/, /^\/api\/admin\/mail\/oauth2\/code$/, /^\/api\/device-connectivity\/[^/]+\/certificate\/download$/,
];

/** True when ThingsBoard would ask this URL's request for a token (the query does not count). */
export function asksForToken(url: string): boolean {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return path.startsWith('/api/') && !SKIPPED.some((re) => re.test(path));
}
