import type { Config } from '@react-router/dev/config';

// SSR on; the route table lives in app/routes.ts (generated twice: en and /it).
export default { appDirectory: 'app', ssr: true, buildDirectory: 'build' } satisfies Config;
