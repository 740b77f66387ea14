// What dhi does not model answers 501 (the server does not support the function), errorCode 2
// (general), with ThingsBoard's error JSON naming what is left out instead of a bare 404, in two ways:
// - operations of the covered controllers that the contract has (edges, public customers, other
//   tenants, entity relations, CSV import, mail (activation e-mails, password reset by e-mail),
//   alarms, dashboards, user settings, mobile app sessions): their handlers below;
// - the paths of ThingsBoard's other controllers, which the contract leaves out (thingsboard-rest.ts):
//   the not-found handler asks `createUnmodelled` before it answers 405 or 404. Their patterns are
//   compiled once, at boot; only requests no route took pay for the lookup.
import { ApiError, ErrorCode } from '../errors.js';
import { literalsFirst, pathRegex } from '../../spec/path-template.js';
import { UNMODELLED_AREAS, type UnmodelledArea } from './thingsboard-rest.js';
import type { Handlers } from '../handler.js';

/** The 501 naming what dhi leaves out (`what`) and the call that needs it. */
const notModelled = (what: string, call: string) => new ApiError(501, ErrorCode.GENERAL, `dhi does not model ${what}: ${call} is not available`);

/** operationId -> what dhi leaves out. Listed in reference-server/README.md. */
export const NOT_MODELLED: Record<string, string> = {
  assignDeviceToPublicCustomer: 'public customers',
  assignDeviceToTenant: 'other tenants (dhi has one tenant)',
  assignDeviceToEdge: 'edges',
  unassignDeviceFromEdge: 'edges',
  getEdgeDevices: 'edges',
  findDevicesByQuery: 'entity relations (device search queries)',
  processDevicesBulkImport: 'bulk import of devices from CSV',
  sendActivationMail: 'mail (activate a user by its link: GET /api/user/{userId}/activationLink)',
  requestResetPasswordByEmail: 'password reset by e-mail',
  checkResetToken: 'password reset by e-mail',
  resetPassword: 'password reset by e-mail',
  getUsersForAssign: 'alarms',
  saveUserSettings: 'user settings (the web UI\'s per-user settings)',
  putUserSettings: 'user settings (the web UI\'s per-user settings)',
  getUserSettings: 'user settings (the web UI\'s per-user settings)',
  putGeneralUserSettings: 'user settings (the web UI\'s per-user settings)',
  getGeneralUserSettings: 'user settings (the web UI\'s per-user settings)',
  deleteGeneralUserSettings: 'user settings (the web UI\'s per-user settings)',
  putUserSettingsByType: 'user settings (the web UI\'s per-user settings)',
  getUserSettingsByType: 'user settings (the web UI\'s per-user settings)',
  deleteUserSettingsByType: 'user settings (the web UI\'s per-user settings)',
  getUserDashboardsInfo: 'dashboards',
  getLastVisitedDashboards: 'dashboards',
  reportUserDashboardAction: 'dashboards',
  getMobileSession: 'mobile app sessions',
  saveMobileSession: 'mobile app sessions',
  removeMobileSession: 'mobile app sessions',
};

/** UserController's calls about the caller's own things: any user may call them (and gets 501). */
export const OWN_USER_NOT_MODELLED = Object.keys(NOT_MODELLED).filter((id) => /Settings|Dashboard|MobileSession|UsersForAssign/.test(id));

/** AuthController's /api/noauth/... calls among them: answered without a token, as in ThingsBoard. */
export const NOAUTH_NOT_MODELLED = ['requestResetPasswordByEmail', 'checkResetToken', 'resetPassword'];

export function notModelledHandlers(): Handlers {
  return Object.fromEntries(Object.entries(NOT_MODELLED).map(([operationId, what]) => {
    return [operationId, () => {
      throw notModelled(what, operationId);
    }];
  }));
}

interface Pattern {
  method: string;
  re: RegExp;
  route: string;
  area: UnmodelledArea;
}

/** The 501 for a method and URL of ThingsBoard's API that dhi leaves out, or undefined. */
export function createUnmodelled(): (method: string, url: string) => ApiError | undefined {
  const patterns: Pattern[] = UNMODELLED_AREAS.flatMap((area) => area.routes.map((route) => {
    const [method, path] = route.split(' ');
    return { method, re: pathRegex(path), route, area };
  })).sort((a, b) => literalsFirst(a.route, b.route));
  return (method, url) => {
    const path = url.split('?')[0];
    const found = patterns.find((p) => p.method === method && p.re.test(path));
    return found && notModelled(found.area.what, `${found.route} (ThingsBoard's ${found.area.controller})`);
  };
}
