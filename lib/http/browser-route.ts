// A route handler a person's browser opens (a sign-in link, a connect callback, a flow's return): while
// the database is away it answers the "we'll be right back" page (503, Retry-After) instead of an empty
// 500; any other failure is left to Next.js as before.
import { databaseUnavailable } from "../platform/db/unavailable";
import { logger } from "../platform/log";
import { unavailablePage } from "./html";

export function browserRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>): (req: Request, ...rest: A) => Promise<Response> {
  return async (req, ...rest) => {
    try {
      return await handler(req, ...rest);
    } catch (err) {
      if (!databaseUnavailable(err)) throw err;
      logger().warn({ method: req.method, err: err instanceof Error ? err.message : String(err) }, "database unavailable");
      return unavailablePage();
    }
  };
}
