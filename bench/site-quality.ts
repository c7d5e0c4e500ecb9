/**
 * Site quality as a player's browser measures it (issue 15): Lighthouse mobile on `/`,
 * `/gamehall`, a game page and `/it` (performance ≥ 90, accessibility ≥ 95, best practices ≥ 95,
 * SEO ≥ 95), and axe-core (@axe-core/playwright) on those pages and, signed in, on the cashier
 * and profile pages: the serious and critical violations. Prints the scores and the violations as
 * a table and as JSON, and writes bench/results/site-quality.json. A measurement, not a test: it
 * exits 0 whatever it finds (2 only when it cannot run). Needs `npm run build` first.
 *
 *   npm run bench:quality                     every page once
 *   npm run bench:quality -- --runs 3         the median Lighthouse run of three per page
 *   npm run bench:quality -- --skip-lighthouse  axe only (a minute instead of several)
 *
 * The server, Chromium and Lighthouse runs are bench/lighthouse.ts's own (started the same way,
 * the same mobile configuration); axe runs in a fresh browser context per page (playwright-core
 * with Debian Chromium), phone-sized for the pages Lighthouse measures, desktop for the rest.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_LAUNCHER } from '../e2e/chromium';
import {
  GAME_PAGE,
  MAIN,
  RESULTS_DIR,
  audit,
  gamePagePath,
  median,
  opportunities,
  startServer,
  stop,
  summarise,
  type PageResult,
  BROWSER_ACCEPT_LANGUAGE,
} from './lighthouse';

/** Issue 15's targets. */
const TARGETS = { performance: 90, accessibility: 95, bestPractices: 95, seo: 95 } as const;
const LIGHTHOUSE_PAGES = ['/', '/gamehall', GAME_PAGE, '/it'];
/** Pages only a signed-in player sees: axe checks them signed in. */
const SIGNED_IN_PAGES = ['/cashier/deposit', '/profile/settings'];
const SERIOUS = new Set(['serious', 'critical']);
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1440, height: 900 };

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** The first few offending elements' selectors. */
  targets: string[];
  nodes: number;
}

interface AxeResult {
  page: string;
  /** Where the page ended up (a guarded page sends a visitor who is not signed in home). */
  finalPath: string;
  /** Rules axe ran that found nothing wrong, to show it looked. */
  passes: number;
  signedIn: boolean;
  viewport: 'phone' | 'desktop';
  violations: AxeViolation[];
}

function parse() {
  return parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      'skip-lighthouse': { type: 'boolean', default: false },
    },
  }).values;
}

async function lighthouseScores(baseUrl: string, pages: string[], runs: number) {
  const rows: PageResult[] = [];
  const notes: Record<string, string[]> = {};
  for (const path of pages) {
    const url = baseUrl + path;
    // Warm with the language header the audited browser sends (the page cache keys on its locale).
    await (await fetch(url, { headers: { 'accept-language': BROWSER_ACCEPT_LANGUAGE } })).arrayBuffer();
    const results = [];
    for (let run = 0; run < runs; run += 1) {
      const lhr = await audit(url);
      results.push({ row: summarise(path, url, lhr), lhr });
    }
    const chosen = median(results);
    rows.push(chosen.row);
    notes[path] = opportunities(chosen.lhr);
    console.log(`  lighthouse ${path}: ${JSON.stringify(chosen.row.scores)}`);
  }
  return { rows, notes };
}

/** A player signed up through the product API in this context, as the sign-up form would (spec §7 auth.register). */
async function signUp(context: BrowserContext, baseUrl: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/forms/sign_up`);
  const answer = await page.evaluate(async () => {
    const body = new URLSearchParams({ login: `quality${Date.now()}@example.com`, password: 'secret12', terms: '1' });
    return (await fetch('/api/auth.register?v=2.34&locale=en', { method: 'POST', body })).json();
  });
  if (answer.error) throw new Error(`sign-up failed: ${JSON.stringify(answer.error)}`);
  await page.close();
}

async function axePage(browser: Browser, baseUrl: string, path: string, signedIn: boolean): Promise<AxeResult> {
  const viewport = signedIn ? 'desktop' : 'phone';
  const context = await browser.newContext({ viewport: viewport === 'phone' ? PHONE : DESKTOP, serviceWorkers: 'block' });
  try {
    if (signedIn) await signUp(context, baseUrl);
    const page = await context.newPage();
    await page.goto(baseUrl + path, { waitUntil: 'load', timeout: 90_000 });
    // Hydrated and settled: the page's scripts have run and its first data is drawn.
    await page.waitForFunction(() => Boolean(document.documentElement?.dataset.device), undefined, { timeout: 15_000 });
    await page.waitForTimeout(500);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const violations = results.violations
      .filter((violation) => SERIOUS.has(violation.impact ?? ''))
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
        nodes: violation.nodes.length,
      }));
    console.log(`  axe ${path}${signedIn ? ' (signed in)' : ''}: ${violations.length} serious or critical`);
    const finalPath = new URL(page.url()).pathname;
    return { page: path, finalPath, passes: results.passes.length, signedIn, viewport, violations };
  } finally {
    await context.close();
  }
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join('\n');
}

function misses(row: PageResult): string[] {
  const scores: Record<keyof typeof TARGETS, number> = row.scores;
  return (Object.keys(TARGETS) as (keyof typeof TARGETS)[])
    .filter((name) => scores[name] < TARGETS[name])
    .map((name) => `${name} ${scores[name]} < ${TARGETS[name]}`);
}

async function main() {
  const args = parse();
  if (!existsSync(MAIN)) {
    console.error(`bench:quality: ${MAIN} is missing. Run \`npm run build\` first.`);
    process.exit(2);
  }
  const runs = Math.max(1, Number(args.runs) || 1);
  console.log('bench:quality: production build on PGlite; Lighthouse mobile (simulated) and axe-core');
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer();
    const pages = await Promise.all(LIGHTHOUSE_PAGES.map((page) => (page === GAME_PAGE ? gamePagePath(server!.baseUrl) : page)));
    const lighthouse = args['skip-lighthouse'] ? { rows: [], notes: {} } : await lighthouseScores(server.baseUrl, pages, runs);
    browser = await chromium.launch({ executablePath: CHROMIUM_LAUNCHER, args: CHROMIUM_FLAGS, headless: true });
    const axe: AxeResult[] = [];
    for (const path of pages) axe.push(await axePage(browser, server.baseUrl, path, false));
    for (const path of SIGNED_IN_PAGES) axe.push(await axePage(browser, server.baseUrl, path, true));

    const report = {
      at: new Date().toISOString(),
      targets: TARGETS,
      lighthouse: lighthouse.rows.map((row) => ({
        page: row.page,
        scores: row.scores,
        lcpMs: row.lcpMs,
        initialJsBytes: row.initialJsBytes,
        misses: misses(row),
        audits_below_0_9: lighthouse.notes[row.page] ?? [],
      })),
      axe,
    };
    console.log('');
    if (lighthouse.rows.length)
      console.log(
        table(
          ['page', 'perf', 'a11y', 'bp', 'seo', 'LCP ms', 'initial JS KB', 'misses'],
          lighthouse.rows.map((row) => [
            row.page,
            String(row.scores.performance),
            String(row.scores.accessibility),
            String(row.scores.bestPractices),
            String(row.scores.seo),
            String(row.lcpMs),
            (row.initialJsBytes / 1024).toFixed(1),
            misses(row).join('; ') || '-',
          ]),
        ),
      );
    console.log('');
    console.log(
      table(
        ['axe page', 'shown', 'signed in', 'rules passed', 'serious/critical', 'rules'],
        axe.map((result) => [
          result.page,
          result.finalPath,
          result.signedIn ? 'yes' : 'no',
          String(result.passes),
          String(result.violations.length),
          result.violations.map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes})`).join(', ') || '-',
        ]),
      ),
    );
    console.log('');
    console.log(JSON.stringify(report, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, 'site-quality.json');
    writeFileSync(file, JSON.stringify(report, null, 2));
    console.log(`\nwrote ${file}`);
  } finally {
    await browser?.close();
    await stop(server);
  }
}

await main();
