// GET /account/access-log.csv — the signed-in person's access log as a CSV file (session cookie only).
import { accessLogExportRoute } from "@/lib/access-log/export";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";
export const GET = browserRoute(accessLogExportRoute("csv"));
