// A local server speaking Twilio's Messages API (POST /2010-04-01/Accounts/{Sid}/Messages.json,
// form-encoded, HTTP Basic with the Account SID and auth token), recording what it received.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface TwilioMessage {
  To: string;
  From?: string;
  MessagingServiceSid?: string;
  Body: string;
}

export async function startTwilioServer(opts: { accountSid: string; authToken: string }) {
  const received: TwilioMessage[] = [];
  let failNext: { status: number; code: number; message: string } | null = null;
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const expectedPath = `/2010-04-01/Accounts/${opts.accountSid}/Messages.json`;
      if (req.method !== "POST" || req.url !== expectedPath) return send(404, { code: 20404, message: "The requested resource was not found", status: 404 });
      const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      if (auth !== `${opts.accountSid}:${opts.authToken}`) return send(401, { code: 20003, message: "Authenticate", status: 401 });
      if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) return send(400, { code: 21600, message: "bad content type", status: 400 });
      const form = Object.fromEntries(new URLSearchParams(raw)) as unknown as TwilioMessage;
      if (!form.To || !form.Body || !(form.From || form.MessagingServiceSid)) return send(400, { code: 21604, message: "A 'To' phone number is required.", status: 400 });
      if (failNext) {
        const f = failNext;
        failNext = null;
        return send(f.status, { code: f.code, message: f.message, status: f.status });
      }
      received.push(form);
      send(201, { sid: `SM${"0".repeat(32)}`, account_sid: opts.accountSid, to: form.To, from: form.From ?? null, body: form.Body, status: "queued", num_segments: "1" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNextWith(status: number, code: number, message: string) {
      failNext = { status, code, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
