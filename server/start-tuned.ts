/**
 * The production entry's first import (main.ts): glibc's malloc tunables apply from the process's
 * start, so this replaces the process before the server is built (malloc-tunables.ts).
 */
import { applyMallocTunables } from './malloc-tunables';

applyMallocTunables();
