// The service's log lines, captured as written: each line a JSON document, in `lines`.
import { Writable } from "node:stream";
import { captureLogsForTests } from "@/lib/platform/log";

/** Sends the service's log from now on into `lines`, one entry per line written. */
export function captureLogLines(lines: string[]): void {
  captureLogsForTests(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    }),
  );
}
