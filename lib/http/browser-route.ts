// A route handler a person's browser opens (a sign-in link, a connect callback, a flow's return): while
// the database is away it answers the "we'll be right back" page (503, Retry-After) instead of an empty
// 500; any other failure is left to Next.js as before.
import { databaseUnavailable, logDatabaseUnavailable } from "../platform/db/unavailable";
import { unavailablePage } from "./html";

export function browserRoute<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>): (req: Request, ...rest: A) => Promise<Response> {
  return async (req, ...rest) => {
    try {
      return await handler(req, ...rest);
    } catch (err) {
      if (!databaseUnavailable(err)) throw err;
      logDatabaseUnavailable(err, { method: req.method });
      return unavailablePage();
    }
  };
}
