// ThingsBoard's JSON Web Tokens (JwtTokenFactory) signed and checked by fast-jwt, the JWT library of
// the Fastify ecosystem (the one @fastify/jwt wraps; its request decorators are not used because the
// control API reads two headers and API keys as ThingsBoard does, auth.ts). HS512, and ThingsBoard's
// claims: sub (the email), userId, scopes ([authority] or [REFRESH_TOKEN]), sessionId, iss, iat, exp;
// an access token also firstName, lastName, enabled, isPublic, tenantId and customerId; a refresh
// token isPublic and a jti.
import { createSigner, createVerifier, TokenError } from 'fast-jwt';

export interface JwtClaims {
  sub: string;
  userId: string;
  scopes: string[];
  /** A new one for every token pair; logging out outdates it. */
  sessionId?: string;
  firstName?: string | null;
  lastName?: string | null;
  enabled?: boolean;
  isPublic: boolean;
  tenantId?: string;
  customerId?: string;
  jti?: string;
  iss: string;
  iat: number;
  exp: number;
}

/** The claims a caller gives; iss, iat and exp are the codec's. */
export type JwtContent = Omit<JwtClaims, 'iss' | 'iat' | 'exp'>;

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; expired: boolean };

export interface JwtCodec {
  sign(content: JwtContent, ttlSeconds: number): string;
  /** Verifies the signature (HS512 only, whatever the header claims) and the expiry. */
  verify(token: string): JwtCheck;
}

const ALGORITHM = 'HS512';

export function createJwtCodec(secret: Buffer, issuer: string): JwtCodec {
  const verifier = createVerifier({ key: secret, algorithms: [ALGORITHM], requiredClaims: ['exp', 'userId'] });
  // One signer per lifetime (access and refresh tokens), built on first use.
  const signers = new Map<number, (payload: JwtContent) => string>();
  const signerFor = (ttlSeconds: number) => {
    let signer = signers.get(ttlSeconds);
    if (!signer) {
      signer = createSigner({ key: secret, algorithm: ALGORITHM, iss: issuer, expiresIn: ttlSeconds * 1000 });
      signers.set(ttlSeconds, signer);
    }
    return signer;
  };
  return {
    sign: (content, ttlSeconds) => signerFor(ttlSeconds)(content),
    verify(token) {
      try {
        const claims = verifier(token) as JwtClaims;
        if (typeof claims.userId !== 'string' || !Array.isArray(claims.scopes)) return { ok: false, expired: false };
        return { ok: true, claims };
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        return { ok: false, expired: error.code === TokenError.codes.expired };
      }
    },
  };
}
