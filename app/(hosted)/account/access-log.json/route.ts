// GET /account/access-log.json — the signed-in person's access log as a JSON file (session cookie only).
import { accessLogExportRoute } from "@/lib/access-log/export";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";
export const GET = browserRoute(accessLogExportRoute("json"));
