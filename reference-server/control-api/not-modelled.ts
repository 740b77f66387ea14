// Endpoints of the covered ThingsBoard controllers that are about things dhi does not model (edges,
// public customers, other tenants, entity relations, CSV import, mail (activation e-mails, password reset by
// e-mail), alarms, dashboards, user settings, mobile app sessions). They exist, so
// that a REST client meets ThingsBoard's error JSON naming what is left out instead of a bare 404;
// the status is 501 (the server does not support the function), errorCode 2 (general).
import { ApiError, ErrorCode } from '../errors.js';
import type { Handlers } from '../handler.js';

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
    const error = () => new ApiError(501, ErrorCode.GENERAL, `dhi does not model ${what}: ${operationId} is not available`);
    return [operationId, () => {
      throw error();
    }];
  }));
}
