#!/usr/bin/env node
// Launcher: strategies are TypeScript plugins loaded at run time, so the CLI runs
// on tsx's loader rather than on a build step that a fresh clone would lack.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
