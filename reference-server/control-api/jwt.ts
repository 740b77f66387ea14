// HS256 JSON Web Tokens with node:crypto: ThingsBoard's access/refresh pair. Claims follow
// ThingsBoard's (sub = email, scopes = [authority], userId, customerId, iss, iat, exp).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  sub: string;
  scopes: string[];
  userId: string;
  customerId?: string;
  /** A new one for every token pair (ThingsBoard's JwtTokenFactory); logging out outdates it. */
  sessionId?: string;
  iss: string;
  iat: number;
  exp: number;
}

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; expired: boolean };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const signature = (secret: Buffer, data: string) => createHmac('sha256', secret).update(data).digest();

export function signJwt(secret: Buffer, claims: JwtClaims): string {
  const data = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${data}.${signature(secret, data).toString('base64url')}`;
}

/** Verifies the signature (HS256 only, whatever the header claims) and the expiry. */
export function verifyJwt(secret: Buffer, token: string, now = Date.now()): JwtCheck {
  if (!JWT_SHAPE.test(token)) return { ok: false, expired: false };
  const [header, payload, sig] = token.split('.');
  const expected = signature(secret, `${header}.${payload}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, expired: false };
  let claims: JwtClaims;
  try {
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
    if (parsedHeader.alg !== 'HS256') return { ok: false, expired: false };
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as JwtClaims;
  } catch {
    return { ok: false, expired: false };
  }
  if (typeof claims.exp !== 'number' || typeof claims.userId !== 'string') return { ok: false, expired: false };
  if (claims.exp * 1000 <= now) return { ok: false, expired: true };
  return { ok: true, claims };
}
