// Google's batch format (lib/connectors/apis/google-batch.ts): the request body the service writes, and
// answers as Google writes them: parts in any order paired by Content-ID, LF or CRLF line ends, a quoted
// boundary, a part without a body, and bodies that are not a batch answer.
import { describe, expect, it } from "vitest";
import { batchBody, googleBatch, parseBatchAnswer } from "@/lib/connectors/apis/google-batch";
import { ProviderAuthError, ProviderFailure, ProviderRateLimited, ProviderScopeError } from "@/lib/connectors/apis/http";
import type { ProviderWireAnswer } from "@/lib/connectors/apis/transport";

const answer = (contentType: string, text: string, status = 200): ProviderWireAnswer => ({
  status,
  text,
  header: (name) => (name.toLowerCase() === "content-type" ? contentType : null),
});

// The shape of Google's documented answer (https://developers.google.com/gmail/api/guides/batch), LF line ends.
const GOOGLE_STYLE = [
  "--batch_7Xp52oGIwpA_AAEAc7ERnGU",
  "Content-Type: application/http",
  "Content-ID: <response-item-1>",
  "",
  "HTTP/1.1 200 OK",
  'ETag: "A-DdBGA6g-wV4rIZCu5Hcm3JQpY/w2hzEg9kqXFH7AEJ-oSc-y10HNQ"',
  "Content-Type: application/json; charset=UTF-8",
  "Content-Length: 42",
  "",
  '{\n "id": "152d10540c21bd07",\n "snippet": "b"\n}',
  "",
  "--batch_7Xp52oGIwpA_AAEAc7ERnGU",
  "Content-Type: application/http",
  "Content-ID: <response-item-0>",
  "",
  "HTTP/1.1 404 Not Found",
  "Content-Type: application/json; charset=UTF-8",
  "",
  '{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}',
  "",
  "--batch_7Xp52oGIwpA_AAEAc7ERnGU",
  "Content-Type: application/http",
  "Content-ID: <response-item-2>",
  "",
  "HTTP/1.1 204 No Content",
  "",
  "--batch_7Xp52oGIwpA_AAEAc7ERnGU--",
  "",
].join("\n");

describe("the batch request", () => {
  it("is one application/http part per call, numbered by Content-ID, with each call's path and query", () => {
    const urls = [
      new URL("https://gmail.googleapis.com/gmail/v1/users/me/messages/a?format=metadata&metadataHeaders=From"),
      new URL("https://gmail.googleapis.com/gmail/v1/users/me/messages/b%2Fc"),
    ];
    expect(batchBody(urls, "b0")).toBe(
      "--b0\r\nContent-Type: application/http\r\nContent-ID: <item-0>\r\n\r\nGET /gmail/v1/users/me/messages/a?format=metadata&metadataHeaders=From\r\n\r\n" +
        "--b0\r\nContent-Type: application/http\r\nContent-ID: <item-1>\r\n\r\nGET /gmail/v1/users/me/messages/b%2Fc\r\n\r\n--b0--\r\n",
    );
    const request = googleBatch("gmail", new URL("https://gmail.googleapis.com/batch/gmail/v1"), urls);
    expect(request).toMatchObject({ method: "POST", url: new URL("https://gmail.googleapis.com/batch/gmail/v1") });
    const boundary = /^multipart\/mixed; boundary=(batch_[0-9a-f]{24})$/.exec(request.raw!.contentType)![1]!;
    expect(request.raw!.body).toBe(batchBody(urls, boundary));
    expect(() => googleBatch("gmail", new URL("https://x/batch"), [])).toThrow(RangeError);
    expect(() => googleBatch("gmail", new URL("https://x/batch"), Array(51).fill(urls[0]))).toThrow(RangeError);
  });
});

describe("the batch answer", () => {
  it("parses Google's parts, in the order written, with their statuses, headers and bodies", () => {
    const parts = parseBatchAnswer("multipart/mixed; boundary=batch_7Xp52oGIwpA_AAEAc7ERnGU", GOOGLE_STYLE)!;
    expect(parts.map((p) => [p.contentId, p.status])).toEqual([
      ["<response-item-1>", 200],
      ["<response-item-0>", 404],
      ["<response-item-2>", 204],
    ]);
    expect(JSON.parse(parts[0]!.body)).toEqual({ id: "152d10540c21bd07", snippet: "b" });
    expect(parts[0]!.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(parts[2]!.body).toBe("");
  });

  it("pairs answers with calls by Content-ID; an absent status reads as null, and CRLF and a quoted boundary read the same", () => {
    const request = googleBatch("gmail", new URL("https://x/batch"), [new URL("https://x/a"), new URL("https://x/b"), new URL("https://x/c")], { absent: [404] });
    const crlf = GOOGLE_STYLE.replace(/\n/g, "\r\n");
    for (const [type, text] of [
      ["multipart/mixed; boundary=batch_7Xp52oGIwpA_AAEAc7ERnGU", GOOGLE_STYLE],
      ['multipart/mixed; boundary="batch_7Xp52oGIwpA_AAEAc7ERnGU"; charset=UTF-8', crlf],
    ] as const) {
      expect(request.readAnswer!(answer(type, text))).toEqual([null, { id: "152d10540c21bd07", snippet: "b" }, null]);
    }
  });

  it("a part's refusal is the batch's error: 401 before a rate limit before a missing scope before the rest", () => {
    const part = (id: number, status: number, body = "{}", headers = "") =>
      `--b\r\nContent-Type: application/http\r\nContent-ID: <response-item-${id}>\r\n\r\nHTTP/1.1 ${status} X\r\n${headers}Content-Type: application/json\r\n\r\n${body}\r\n`;
    const read = (...parts: string[]) => {
      const request = googleBatch(
        "gmail",
        new URL("https://x/batch"),
        parts.map((_, i) => new URL(`https://x/${i}`)),
      );
      return () => request.readAnswer!(answer("multipart/mixed; boundary=b", `${parts.join("")}--b--\r\n`));
    };
    expect(read(part(0, 500), part(1, 403), part(2, 429, "{}", "Retry-After: 9\r\n"), part(3, 401))).toThrow(ProviderAuthError);
    expect(read(part(0, 500), part(1, 403), part(2, 429, "{}", "Retry-After: 9\r\n"))).toThrow(ProviderRateLimited);
    try {
      read(part(0, 200), part(1, 429, "{}", "Retry-After: 9\r\n"))();
    } catch (err) {
      expect((err as ProviderRateLimited).retryAfter).toBe(9);
    }
    const rateReason = JSON.stringify({ error: { code: 403, errors: [{ reason: "userRateLimitExceeded" }] } });
    expect(read(part(0, 403, rateReason))).toThrow(ProviderRateLimited);
    expect(read(part(0, 500), part(1, 403))).toThrow(ProviderScopeError);
    expect(read(part(0, 200), part(1, 404))).toThrow(ProviderFailure);
  });

  it("an answer that is not a batch, or lacks a call's part, is a provider failure", () => {
    const request = googleBatch("gmail", new URL("https://x/batch"), [new URL("https://x/a"), new URL("https://x/b")]);
    const one = "--b\r\nContent-Type: application/http\r\nContent-ID: <response-item-0>\r\n\r\nHTTP/1.1 200 OK\r\n\r\n{}\r\n";
    for (const [type, text] of [
      ["application/json", "{}"],
      ["multipart/mixed; boundary=b", `${one}`],
      ["multipart/mixed; boundary=b", `${one}--b--\r\n`],
      ["multipart/mixed; boundary=b", "--b\r\nContent-Type: application/http\r\n\r\nnot http\r\n--b--\r\n"],
    ] as const) {
      expect(() => request.readAnswer!(answer(type, text))).toThrow(ProviderFailure);
    }
    expect(parseBatchAnswer("multipart/mixed; boundary=b", `${one}`)).toBeNull();
  });
});
