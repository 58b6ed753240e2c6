import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The e2e files spawn a bot and a simulator on a scaled clock (up to 900x): on a 2-core
// CI runner, running them beside the unit files or beside each other starves those
// processes and a market second slips by. So one `vitest run` runs two projects: the
// unit files in parallel first, then the e2e files one at a time on a quiet machine.
const E2E = 'test/e2e/**/*.test.ts';

// The package's doors ("exports") point tests and the typechecker at the sources through
// the `source` condition, and Node at the compiled dist/ (see package.json).
const conditions = ['source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    // The CLI and e2e tests spawn bin/tiqs-runner.js, which runs the compiled dist/.
    globalSetup: ['test/global-setup.ts'],
    hookTimeout: 20_000,
    reporters: ['default', ['json', { outputFile: 'var/test-results.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'strategies/**/*.test.ts'],
          exclude: [E2E, '**/node_modules/**'],
          // vitest's default on this 2-core machine is one worker (cores - 1), which ran
          // the unit files one after another; many of them wait on a child process.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
