import type { AuthProvider } from 'react-admin';
import { readSession, type SessionTokens } from '../api/session';
import { closeSession, currentOperator, openSession } from './operator-session';

/**
 * react-admin's view of the operator session. The login page does the two steps (password, then
 * TOTP) itself and hands the tokens to `login`; permissions are the names the panel API reports
 * (services/panel-api/src/auth/permissions.ts), e.g. 'transactions.approve'.
 */
export const authProvider: AuthProvider = {
  async login(params: { tokens?: SessionTokens }) {
    if (!params.tokens) throw new Error('login expects the tokens of a finished sign-in');
    openSession(params.tokens);
    await currentOperator();
  },
  async logout() {
    if (readSession()) await closeSession();
  },
  async checkAuth() {
    if (!readSession()) throw new Error('not signed in');
  },
  async checkError(error: { status?: number }) {
    // panelFetch already tried a refresh: a 401 now means the session is over. A 403 is a missing
    // permission, not a reason to sign out.
    if (error?.status === 401) {
      await closeSession();
      throw new Error('session ended');
    }
  },
  async getPermissions() {
    if (!readSession()) return [];
    return (await currentOperator()).permissions;
  },
  async getIdentity() {
    const operator = await currentOperator();
    return { id: operator.id, fullName: operator.username };
  },
};

/** True when the permissions react-admin loaded include this one. */
export function can(permissions: unknown, permission: string): boolean {
  return Array.isArray(permissions) && permissions.includes(permission);
}
