// The grants the token endpoint serves, by grant_type. A new grant is one file in this folder and one
// entry here; discovery advertises what this registry holds.
import { authorizationCodeGrant } from "./authorization-code";
import { refreshTokenGrant } from "./refresh-token";
import type { Grant } from "./types";

export type { Grant } from "./types";

export const GRANTS: ReadonlyMap<string, Grant> = new Map([authorizationCodeGrant, refreshTokenGrant].map((g) => [g.type, g]));
