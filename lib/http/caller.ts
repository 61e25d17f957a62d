// Who a request comes from, as a route contract sees it: the API key, the agent (X-Agent), the person.
// lib/credentials resolves them; the route steps and the handlers read these shapes.
import type { KeyKind, Plane } from "../platform/db/generated/enums";

/** Which API key a route takes. */
export type KeyRequirement = "secret" | "publishable" | "any";

/** An active API key of a developer (lib/api-keys resolves the X-API-Key header to one). */
export interface CallerKey {
  id: string;
  developerId: string;
  kind: KeyKind;
  plane: Plane;
}

export interface ResolvedAgent {
  id: string;
  handle: string;
  displayName: string;
}

export interface ResolvedUser {
  id: string;
  plane: Plane;
  /** How the request named the user: an agent token, an OpenID Connect access token, or X-User-Id. */
  via: "bearer" | "access_token" | "external_id";
  externalId?: string;
}
