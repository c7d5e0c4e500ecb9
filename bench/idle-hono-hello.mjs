// The reference of bench/idle.ts: a bare Hono hello-world on @hono/node-server, what a Node
// process serving HTTP costs when it does nothing. Usage: node bench/idle-hono-hello.mjs <port>
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/healthz', (c) => c.text('ok'));
app.get('/', (c) => c.text('Hello Hono!'));
serve({ fetch: app.fetch, port: Number(process.argv[2]), hostname: '127.0.0.1' });
