/** Prometheus metrics at /metrics (architecture §2: prom-client). One registry per app. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Groups paths into a few kinds so the label set stays small. */
function pathKind(path: string): string {
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/assets/')) return 'asset';
  if (path.startsWith('/nfx/')) return 'config';
  if (path.startsWith('/cms/')) return 'content';
  return 'page';
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['kind', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['kind'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    observe(path: string, status: number, durationMs: number) {
      const kind = pathKind(path);
      requests.inc({ kind, status: String(status) });
      duration.observe({ kind }, durationMs / 1000);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
