// The ceiling for "one database round trip per request" in one Node.js process: bare node:http and
// node-postgres (a pool of 10, as the service's), answering every request with one prepared
// point-select of a ready JSON row. bench/run.ts starts it beside the service on the same PostgreSQL
// and prints the service's authenticated read as a share of it.
// Env: PORT, DATABASE_URL (the database), CEILING_SCHEMA (a schema of its own, made and filled by the caller).
import { createServer } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const schema = process.env.CEILING_SCHEMA;
if (!schema || !/^[a-z0-9_]+$/.test(schema)) throw new Error("CEILING_SCHEMA must name the schema holding the row.");
// The row holds JSON as text: the server sends it as stored, as a read that serializes nothing would.
const read = { name: "ceiling_read", text: `SELECT body FROM "${schema}".profiles WHERE id = $1`, values: [1], rowMode: "array" };

const server = createServer((req, res) => {
  pool.query(read).then(
    (r) => {
      const body = r.rows[0][0];
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    },
    (err) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err.message));
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`ceiling listening on ${process.env.PORT}`));
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close(() => pool.end().then(() => process.exit(0))));
