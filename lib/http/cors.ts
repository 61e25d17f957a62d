// CORS, decided in one place: open routes answer any origin; secret-key routes never grant one;
// a route may also grant a set of origins it looks up (the token endpoint: public clients' callbacks),
// given the client the answer is for, which its handler returns (or throws with its error: ForClient).
export type CorsPolicy = "open" | "closed" | { allowOrigin: (origin: string, client?: string) => Promise<boolean> };

const METHODS_AND_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
  "Access-Control-Max-Age": "600",
};

/**
 * An error a handler throws once it knows which client it answers (the token endpoint, after the
 * client authenticated): the answer to the error may be read from that client's origins too.
 */
export class ForClient extends Error {
  constructor(
    readonly clientId: string,
    cause: unknown,
  ) {
    super("An error answered for an OAuth client.", { cause });
  }
}

/** Runs `work` for a client: whatever it throws is thrown for that client (ForClient). */
export async function forClient<T>(clientId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new ForClient(clientId, err);
  }
}

/** Adds the policy's CORS headers to a response (closed adds none, so browsers cannot read it). */
export async function applyCors<R extends { readonly headers: Pick<Headers, "get" | "set" | "append"> }>(
  res: R,
  policy: CorsPolicy,
  req?: { readonly headers: Pick<Headers, "get"> },
  client?: string,
): Promise<R> {
  if (policy === "open") {
    res.headers.set("Access-Control-Allow-Origin", "*");
    for (const [k, v] of Object.entries(METHODS_AND_HEADERS)) res.headers.set(k, v);
  } else if (policy !== "closed") {
    if (!/\bOrigin\b/i.test(res.headers.get("Vary") ?? "")) res.headers.append("Vary", "Origin");
    const origin = req?.headers.get("origin");
    if (origin && (await policy.allowOrigin(origin, client))) {
      res.headers.set("Access-Control-Allow-Origin", origin);
      for (const [k, v] of Object.entries(METHODS_AND_HEADERS)) res.headers.set(k, v);
    }
  }
  return res;
}

/**
 * The answer to a preflight. Closed routes grant nothing: a browser cannot send X-API-Key to
 * them, which keeps secret keys out of front-end code.
 */
export async function preflight(policy: CorsPolicy, req?: Request): Promise<Response> {
  return applyCors(new Response(null, { status: 204, headers: { Vary: "Origin" } }), policy, req);
}
