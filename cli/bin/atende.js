#!/usr/bin/env node
// The repository runs its TypeScript through tsx, with no build step. Importing
// `tsx` registers its loader in this process (the same as `node --import tsx`),
// so the CLI starts with one process and receives signals directly.
import 'tsx';

await import('../src/bin.ts');
