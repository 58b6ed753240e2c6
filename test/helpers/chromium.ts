import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium, which CI installs (.ci/apt-packages); `npx playwright install` does not work here. */
const CHROMIUM = '/usr/bin/chromium';

/** Whether there is a Chromium to drive (a suite skips, with its name, when there is none). */
export const hasChromium = (): boolean => existsSync(CHROMIUM);

/** Headless Debian Chromium, with the flags these machines need. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
