/**
 * A load generator's HTTP/1.1 client: one kept-alive socket, one request at a time, the request
 * written in one piece and the answer read by its Content-Length (or chunks). node:http's client
 * costs the bench process about 0.3 ms of CPU per request (its ClientRequest, agent and header
 * machinery), and on a two-core machine the bench's CPU is taken from the server and the database
 * being measured; pgbench, the reference, is a C client. Only what the benches send and our server
 * answers is handled; anything else fails the request loudly.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export class KeepAliveClient {
  #socket: Socket | undefined;
  #buffered: Buffer = Buffer.alloc(0);
  #waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** POSTs body to path with these headers (Host and Content-Length are added). */
  post(path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
    if (this.#waiting) return Promise.reject(new Error('one request at a time on a KeepAliveClient'));
    const socket = this.#socket ?? this.#open();
    const lines = [`POST ${path} HTTP/1.1`, `Host: ${this.host}:${this.port}`, `Content-Length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
      this.#answerIfWhole();
    });
    const fail = (error: Error) => {
      this.#socket = undefined;
      this.#buffered = Buffer.alloc(0);
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    this.#socket = socket;
    return socket;
  }

  #answerIfWhole(): void {
    const end = this.#buffered.indexOf(HEADER_END);
    if (end < 0 || !this.#waiting) return;
    const head = this.#buffered.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
    const start = end + HEADER_END.length;
    let body: Buffer | undefined;
    let rest: Buffer;
    if (length !== undefined) {
      if (this.#buffered.length < start + Number(length)) return;
      body = this.#buffered.subarray(start, start + Number(length));
      rest = this.#buffered.subarray(start + Number(length));
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const chunked = readChunks(this.#buffered.subarray(start));
      if (!chunked) return;
      [body, rest] = chunked;
    } else {
      this.#waiting.reject(new Error(`an answer without Content-Length or chunks: ${head}`));
      this.#waiting = undefined;
      this.close();
      return;
    }
    this.#buffered = Buffer.from(rest);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting.resolve({ status, text: body.toString('utf8') });
  }
}

/** A whole chunked body and what follows it, or undefined while it is still arriving. */
function readChunks(data: Buffer): [Buffer, Buffer] | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n', lineEnd + 2);
      return trailerEnd < 0 ? undefined : [Buffer.concat(parts), data.subarray(trailerEnd + 2)];
    }
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
