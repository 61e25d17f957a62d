// The real service, in process: a fetch that hands each request to the app's route handler for its
// path (the router the API fast path uses), so the client speaks to the service over real Requests.
import { apiPathError } from "@/lib/http/api-routes";
import { ApiRouter } from "@/lib/http/node-dispatch";
import { ProfileClient, type ClientOptions, type FetchLike } from "../src/index";

const modules = Object.entries(import.meta.glob<Record<string, unknown>>("../../../app/**/route.ts", { eager: true })).map(([file, module]) => ({
  file: file.replace(/^(\.\.\/)+/, ""),
  module,
}));
const router = new ApiRouter(modules);

export const BASE_URL = "http://localhost:3000";

/** Answers a request with the service's own route handler. */
export const serviceFetch: FetchLike = async (input, init) => {
  const req = new Request(input, init);
  // The service counts per-IP limits by the client address its server stamps on each request.
  req.headers.set("x-service-client-ip", "127.0.0.1");
  const url = new URL(req.url);
  const found = router.match(req.method, url.pathname);
  if (!found || "allow" in found) return apiPathError(found && "allow" in found ? found.allow : null);
  return found.handler(req, { params: Promise.resolve(found.params) });
};

/** Counts the requests a fetch passes on. */
export function counting(fetch: FetchLike): FetchLike & { calls: string[] } {
  const calls: string[] = [];
  const counted = (async (input, init) => {
    const req = new Request(input, init);
    calls.push(`${req.method} ${new URL(req.url).pathname}`);
    return fetch(req);
  }) as FetchLike & { calls: string[] };
  counted.calls = calls;
  return counted;
}

export function client(options: Partial<ClientOptions> & { agent: string }, fetch: FetchLike = serviceFetch): ProfileClient {
  return new ProfileClient({ baseUrl: BASE_URL, fetch, retry: { retries: 0 }, ...options });
}
