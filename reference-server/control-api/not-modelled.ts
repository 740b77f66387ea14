// Endpoints of the covered ThingsBoard controllers that are about things dhi does not model (edges,
// public customers, other tenants, entity relations, CSV import, activation and password reset by
// e-mail). They exist, so
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
  sendActivationMail: 'user activation (e-mail)',
  getActivationLink: 'user activation (e-mail)',
  getActivationLinkInfo: 'user activation (e-mail)',
  checkActivateToken: 'user activation (e-mail)',
  activateUser: 'user activation (e-mail)',
  requestResetPasswordByEmail: 'password reset by e-mail',
  checkResetToken: 'password reset by e-mail',
  resetPassword: 'password reset by e-mail',
};

/** AuthController's /api/noauth/... calls among them: answered without a token, as in ThingsBoard. */
export const NOAUTH_NOT_MODELLED = ['checkActivateToken', 'activateUser', 'requestResetPasswordByEmail', 'checkResetToken', 'resetPassword'];

export function notModelledHandlers(): Handlers {
  return Object.fromEntries(Object.entries(NOT_MODELLED).map(([operationId, what]) => {
    const error = () => new ApiError(501, ErrorCode.GENERAL, `dhi does not model ${what}: ${operationId} is not available`);
    return [operationId, () => {
      throw error();
    }];
  }));
}
