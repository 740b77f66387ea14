// Password hashes: scrypt with a random salt, stored as `salt:hash` (hex).
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, KEY_LENGTH);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [salt, hash] = stored?.split(':') ?? [];
  if (!salt || !hash) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'hex'), KEY_LENGTH);
  const expected = Buffer.from(hash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/**
 * ThingsBoard's default password policy (DefaultSecuritySettingsService: 6 to 72 characters, the
 * other rules unset), as GET /api/noauth/userPasswordPolicy answers it.
 */
export const PASSWORD_POLICY = {
  minimumLength: 6, maximumLength: 72, minimumUppercaseLetters: null, minimumLowercaseLetters: null,
  minimumDigits: null, minimumSpecialCharacters: null, allowWhitespaces: true,
  forceUserToResetPasswordIfNotValid: false, passwordExpirationPeriodDays: null, passwordReuseFrequencyDays: null,
};

/** The policy's violation as Passay words it (SystemSecurityService.validatePasswordByPolicy), or undefined. */
export function policyViolation(password: string): string | undefined {
  if (password.length < PASSWORD_POLICY.minimumLength) return `Password must be ${PASSWORD_POLICY.minimumLength} or more characters in length.`;
  if (password.length > PASSWORD_POLICY.maximumLength) return `Password must be no more than ${PASSWORD_POLICY.maximumLength} characters in length.`;
  return undefined;
}
