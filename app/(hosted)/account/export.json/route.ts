// GET /account/export.json — everything the service holds about the signed-in person, as a JSON file (session cookie only).
import { accountExportRoute } from "@/lib/account/export";
import { browserRoute } from "@/lib/http/browser-route";

export const dynamic = "force-dynamic";
export const GET = browserRoute(accountExportRoute);
