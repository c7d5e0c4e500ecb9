import type { Config } from '@react-router/dev/config';

// The reference of issue 12: the smallest React Router 7 SSR app, built like ours (SSR on).
export default { appDirectory: 'app', ssr: true, buildDirectory: '../../build/bench-ssr-reference' } satisfies Config;
