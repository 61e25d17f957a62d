// The production server: Next.js behind a plain Node HTTP server that records each connection's
// peer address as the last X-Forwarded-For entry, so the app knows the real client address
// (`next start` keeps a client-sent X-Forwarded-For as is, which would let anyone spoof it).
import { createServer } from "node:http";
import next from "next";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();

await app.prepare();
const server = createServer((req, res) => {
  const peer = req.socket.remoteAddress ?? "unknown";
  const prior = req.headers["x-forwarded-for"];
  req.headers["x-forwarded-for"] = prior ? `${prior}, ${peer}` : peer;
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => console.log(`Service listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
