/**
 * The floor under an API answer, for bench/ssr.ts --floor:
 *   node bare-answer.mjs ANSWER_FILE PORT
 * A bare node:http server that answers every request with one recorded answer of our server (its
 * status, headers and body, from ANSWER_FILE as JSON), after spinning the thread for as many
 * microseconds as the request's path says (/0, /5, /10 …): the rate our server would reach if its
 * own work per call cost that much, with Node's HTTP and the answer's bytes as they are.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [answerFile, port] = process.argv.slice(2);
const answer = JSON.parse(readFileSync(answerFile, 'utf8'));
const headers = [...answer.headers, 'content-length', String(Buffer.byteLength(answer.body))];

createServer((request, response) => {
  const spinMicroseconds = Number((request.url ?? '/0').slice(1)) || 0;
  const until = performance.now() + spinMicroseconds / 1000;
  while (performance.now() < until);
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}).listen(Number(port), '127.0.0.1', () => console.log(`ready bare answer ${answer.body.length} bytes`));
process.on('SIGTERM', () => process.exit(0));
