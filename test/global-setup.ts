/**
 * Migrates and seeds one database per run and per kind, for test/databases.ts to copy into each
 * test file: PGlite as a data-dir dump in a temporary folder, PostgreSQL (when TEST_DATABASE_URL
 * is set) as a template database. Both are removed when the run ends.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../server/db/client';
import { adminQuery, migrateAndSeed, postgresUrl, uniqueDatabaseName, waitForNoSessions } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data-dir dump (uncompressed tar) of a migrated and seeded database. */
    pgliteTemplateFile: string;
    /** Name of a migrated and seeded PostgreSQL database to copy; empty without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

async function dumpSeededPglite(file: string): Promise<void> {
  const handle = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateAndSeed(handle);
    if (!handle.dumpDataDir) throw new Error('PGlite handles can dump their data folder');
    const dump = await handle.dumpDataDir();
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
}

async function createSeededPostgresTemplate(name: string): Promise<void> {
  await adminQuery(`CREATE DATABASE ${name}`);
  const handle = await openDatabase({ url: postgresUrl(name), poolSize: 1 });
  try {
    await migrateAndSeed(handle);
  } finally {
    await handle.close();
  }
  // CREATE DATABASE … TEMPLATE refuses while anyone is still connected to the template.
  await waitForNoSessions(name);
}

export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), 'test-template-'));
  const pgliteTemplateFile = join(folder, 'pglite.tar');
  const postgresTemplate = process.env.TEST_DATABASE_URL ? uniqueDatabaseName('template') : '';
  const dropTemplates = async () => {
    await rm(folder, { recursive: true, force: true });
    if (postgresTemplate) await adminQuery(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
  };
  try {
    await Promise.all([
      dumpSeededPglite(pgliteTemplateFile),
      postgresTemplate ? createSeededPostgresTemplate(postgresTemplate) : undefined,
    ]);
  } catch (error) {
    await dropTemplates();
    throw error;
  }
  project.provide('pgliteTemplateFile', pgliteTemplateFile);
  project.provide('postgresTemplate', postgresTemplate);
  return dropTemplates;
}
