// A developer's HTTP endpoint for the outbound tests (completion callbacks, webhooks): a real local
// server on 127.0.0.1 that records every request (path, headers, raw body) and answers as the test says.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** Answers one request; `n` counts the requests to its path so far, this one included. Not answering leaves it hanging. */
export type Answer = (request: Received, res: ServerResponse, n: number) => void;

export async function startRecordingServer(answer: Answer) {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const request = { path: (req.url ?? "").split("?")[0]!, headers: req.headers, raw };
      received.push(request);
      const n = (seen.get(request.path) ?? 0) + 1;
      seen.set(request.path, n);
      answer(request, res, n);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    to: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
