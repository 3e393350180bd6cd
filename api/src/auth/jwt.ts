/**
 * The JWT library (jose) behind one module: the verifier, the emulator helpers and the tests that mint
 * Google-style RS256 tokens all reach it through here, so replacing or upgrading it touches one file.
 *
 * @example
 * const keys = createRemoteJWKSet(new URL(jwksUrl));
 * const { payload } = await jwtVerify(token, keys, { algorithms: ["RS256"] });
 */
export {
  createRemoteJWKSet,
  decodeJwt,
  errors as jwtErrors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
  type JWK,
  type JWTPayload,
  type JWTVerifyOptions,
} from "jose";
