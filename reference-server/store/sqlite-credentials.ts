// User credentials beyond the password hash: whether a user's credentials are enabled
// (UserController.setUserCredentialsEnabled), the activation token of a user not yet activated, and the moments before which a user's or a session's
// tokens are outdated (ThingsBoard's TokenOutdatingService: changing a password or disabling the
// credentials outdates the user's tokens, logging out outdates the session's).
import type { Database } from 'better-sqlite3';
import type { Activation, Store } from './types.js';

type CredentialQueries = Pick<Store, 'setUserCredentialsEnabled' | 'userCredentialsEnabled' | 'outdateTokens' | 'tokensOutdatedAt'
  | 'setActivation' | 'activation' | 'userIdByActivateToken'>;

/** Outdating marks older than this are dropped: every token issued before them has expired (dhi's longest token, 7 days, with room). */
const KEEP_MS = 30 * 86_400_000;

export function createCredentialQueries(db: Database): CredentialQueries {
  const q = {
    setEnabled: db.prepare('UPDATE users SET credentials_enabled = ? WHERE id = ?'),
    enabled: db.prepare('SELECT credentials_enabled FROM users WHERE id = ?').pluck(),
    outdate: db.prepare(`INSERT INTO token_outdating (id, outdated_at) VALUES (?, ?)
      ON CONFLICT (id) DO UPDATE SET outdated_at = max(outdated_at, excluded.outdated_at)`),
    prune: db.prepare('DELETE FROM token_outdating WHERE outdated_at < ?'),
    outdatedAt: db.prepare('SELECT outdated_at FROM token_outdating WHERE id = ?').pluck(),
    setActivation: db.prepare('UPDATE users SET activate_token = ?, activate_token_exp = ? WHERE id = ?'),
    activation: db.prepare(`SELECT activate_token AS token, activate_token_exp AS expiresAt FROM users
      WHERE id = ? AND activate_token IS NOT NULL`),
    byActivateToken: db.prepare('SELECT id FROM users WHERE activate_token = ?').pluck(),
  };
  return {
    setUserCredentialsEnabled: (id, enabled) => void q.setEnabled.run(enabled ? 1 : 0, id),
    userCredentialsEnabled: (id) => q.enabled.get(id) !== 0,
    outdateTokens(id, at) {
      q.prune.run(at - KEEP_MS);
      q.outdate.run(id, at);
    },
    tokensOutdatedAt: (id) => q.outdatedAt.get(id) as number | undefined,
    setActivation: (id, activation) => void q.setActivation.run(activation?.token ?? null, activation?.expiresAt ?? null, id),
    activation: (id) => q.activation.get(id) as Activation | undefined,
    userIdByActivateToken: (token) => q.byActivateToken.get(token) as string | undefined,
  };
}
