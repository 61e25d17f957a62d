// OpenTelemetry traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, every request the server answers is a
// span (kind server, continuing the caller's W3C traceparent), named by its route pattern where the
// service knows it (the API and the MCP servers), exported over OTLP/HTTP in batches. Unset, nothing
// of OpenTelemetry's SDK loads and a request costs one null check (scripts/server.mjs).
import type { IncomingMessage, ServerResponse } from "node:http";
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { env } from "../env";
import { processWideSlot } from "../process-wide";

const started = processWideSlot<{ tracer: Tracer; shutdown: () => Promise<void> }>("tracing");

/** Starts exporting traces when OTEL_EXPORTER_OTLP_ENDPOINT is set; whether it did. */
export async function startTracing(): Promise<boolean> {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: serviceName } = env();
  if (!endpoint || started.current) return Boolean(started.current);
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { W3CTraceContextPropagator }] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }), { scheduledDelayMillis: 1_000 })],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  started.current = { tracer: trace.getTracer("profile-service"), shutdown: () => provider.shutdown() };
  return true;
}

/** Exports what waits and stops (shutdown). */
export async function stopTracing(): Promise<void> {
  const current = started.current;
  started.current = undefined;
  await current?.shutdown();
}

/** Runs `serve` inside the request's span; the span ends with the answer (or the connection). */
export function traceRequest(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
  const tracer = started.current?.tracer;
  if (!tracer) return serve();
  const parent = propagation.extract(context.active(), req.headers);
  const method = req.method ?? "GET";
  const span = tracer.startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      // Never the path: it may hold a capability (a connect link, a flow's id) or, in its query, a code.
      // The route pattern is added where the service knows it (nameRequestSpan).
      attributes: { "http.request.method": method, "user_agent.original": req.headers["user-agent"] ?? "" },
    },
    parent,
  );
  const end = () => {
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once("close", end);
  context.with(trace.setSpan(parent, span), serve);
}

/** Names the request's span by its route pattern, where the service knows it (lib/platform/metrics.ts). */
export function nameRequestSpan(method: string, route: string): void {
  // Without tracing there is no span to name: a request pays this one check.
  if (!started.current) return;
  const span: Span | undefined = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute("http.route", route);
  span.updateName(`${method} ${route}`);
}
