// Device access tokens as ThingsBoard generates them (RandomStringUtils.randomAlphanumeric(20)): the
// server gives them to new devices, the suite to the devices it creates and to unknown tokens.
import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random alphanumeric characters from the CSPRNG (20: a token). */
export function randomToken(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
