// This app's settings, from its environment (README.md lists them).
import "server-only";

// eslint-disable-next-line no-restricted-properties -- an example app is configured by its own environment
const { SERVICE_URL = "http://localhost:3000", CLIENT_ID, CLIENT_SECRET, SECRET_KEY, AGENT, AUTH_SECRET } = process.env;
if (!CLIENT_ID || !CLIENT_SECRET || !SECRET_KEY || !AGENT || !AUTH_SECRET) {
  throw new Error("Set CLIENT_ID (oc_…), CLIENT_SECRET (ocs_…), SECRET_KEY (sk_…), AGENT (the agent's handle) and AUTH_SECRET (openssl rand -base64 32).");
}

export const config = {
  /** The service's BASE_URL: the OpenID Connect issuer. */
  serviceUrl: SERVICE_URL.replace(/\/$/, ""),
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  secretKey: SECRET_KEY,
  agent: AGENT,
  authSecret: AUTH_SECRET,
};
