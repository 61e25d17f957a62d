// A TCP proxy in front of a real server, which a test stops, restarts and pauses to play the faults a
// network and a server have: refused connections, dropped connections, and a server that stops answering.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  /** The port clients connect to (the same across stop and start). */
  port: number;
  /** Stops listening and drops every connection: the server is away (connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port (nothing, while it listens). */
  start(): Promise<void>;
  /** Keeps the connections but forwards nothing either way: a server that hangs. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let paused = false;
  const held: Array<() => void> = [];
  const forward = (from: Socket, to: Socket) =>
    from.on("data", (chunk) => {
      if (paused) held.push(() => void to.write(chunk));
      else to.write(chunk);
    });
  const onConnection = (client: Socket) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : port);
      });
    });
  const port = await listen(0);
  const stop = async () => {
    if (!server.listening) return;
    for (const s of sockets) s.destroy();
    sockets.clear();
    held.length = 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    port,
    stop,
    async start() {
      if (server.listening) return;
      server = createServer(onConnection);
      await listen(port);
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const send of held.splice(0)) send();
    },
    close: stop,
  };
}
