// GET /api/health — 200 when the database answers, 503 when it does not.
import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth();
  return Response.json(
    { status: health.ok ? "ok" : "unavailable", database: health.database },
    { status: health.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
