/**
 * The production entry's first import (main.ts): glibc's malloc tunables and V8's heap limits
 * apply from the process's start, so this replaces the process before the server is built
 * (process-tuning.ts).
 */
import { applyProcessTuning } from './process-tuning';

applyProcessTuning();
