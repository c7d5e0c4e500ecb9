/**
 * Production helper entry (bundled to build/server/prepare-database.js): brings the embedded
 * database's folder (DATA_DIR) to this build's schema and content, then ends. main.ts runs it as
 * a process of its own before it opens the folder, so the memory of PGlite's initdb, the
 * migrations and the seed (the boot's peak was over 1 GB) goes back to the system with this
 * process instead of staying in the site's (issue 12: an idle server under 200 MB).
 */
import { openDatabase } from './db/client';
import { loadConfig } from './config';
import { prepareDatabase } from './boot';

const config = loadConfig();
const database = await openDatabase({ dataDir: config.DATA_DIR, pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS });
try {
  await prepareDatabase(database);
} finally {
  await database.close();
}
