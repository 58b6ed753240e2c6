import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  type InstrumentMasterFormat,
  parseInstrumentMaster,
  readInstrumentMasterRecords,
} from '../../src/api/instrument-master-csv.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import {
  type EmbeddedSimulator,
  startEmbeddedSimulator,
} from '../../src/runtime/embedded-simulator.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { instrumentMasterFile } from '../../src/sim/market/instrument-master-file.ts';

// Cold start (issue 13): a bot on the embedded simulator reads the simulator's
// instrument master in-process, as records through the CSV reader's row reader, instead
// of `GET /all` and a CSV parse. The instruments must be exactly the parsed file's.
const root = process.cwd();
const START = '2026-11-20T10:00:00+05:30';
const configText = (stateDir: string) => `
mode: paper
broker:
  baseUrl: embedded
  sim: { seed: 11, start: "${START}" }
strategies:
  - id: looker
    module: ${root}/test/fixtures/strategies/looks-up-instruments.ts
    params: { symbol: SBIN-EQ }
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 0
`;

let embedded: EmbeddedSimulator | undefined;
let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.stop();
  await embedded?.sim.close();
  kernel = undefined;
  embedded = undefined;
});

const rowsOf = (records: string[][]) => records.map((record, i) => ({ record, line: i + 1 }));

describe("the embedded simulator's instrument master, read without the CSV round trip", () => {
  it('gives the instruments the CSV parse gives, for the default format and another', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'tr-state-'));
    embedded = await startEmbeddedSimulator(parseConfig(configText(stateDir), 'c.yaml', {}));
    const { records, text } = embedded.instrumentMaster();
    expect(text).toBe(instrumentMasterFile(embedded.sim.exchange.market.universe));
    const rupees: InstrumentMasterFormat = {
      ...DEFAULT_INSTRUMENT_MASTER_FORMAT,
      strikeUnit: 'paise',
    };
    for (const format of [DEFAULT_INSTRUMENT_MASTER_FORMAT, rupees]) {
      const direct = readInstrumentMasterRecords(rowsOf(records), format);
      expect(direct.instruments.length).toBeGreaterThan(100);
      expect(direct).toEqual(parseInstrumentMaster(text, format));
    }
  });

  it('is what a paper kernel loads: no GET /all, the same text cached for the day', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'tr-state-'));
    const urls: string[] = [];
    kernel = await Kernel.create({
      config: parseConfig(configText(stateDir), 'config/test.yaml', {}),
      configFile: join(root, 'config', 'test.yaml'),
      logger: pino({ level: 'silent' }),
      fetch: (input, init) => {
        urls.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    const status = await kernel.instruments.load();
    expect(status.origin).toBe('service');
    expect(urls.filter((u) => new URL(u).pathname === '/all')).toEqual([]);
    const cached = readFileSync(join(stateDir, 'instruments-embedded-2026-11-20.csv'), 'utf8');
    const parsed = parseInstrumentMaster(cached, DEFAULT_INSTRUMENT_MASTER_FORMAT);
    expect(status.instruments).toBe(parsed.instruments.length);
    for (const i of parsed.instruments)
      expect(kernel.instruments.byToken(i.token, i.exchange)).toEqual(i);
  });
});
