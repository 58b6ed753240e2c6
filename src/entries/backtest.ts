/**
 * `tiqs-runner/backtest`: backtests on recorded market data. {@link runBacktest} runs a
 * spec on the kernel with a virtual clock; {@link runSweep} runs a parameter grid on
 * worker processes (or threads) and ranks the points; the report writers turn a result into JSON/HTML;
 * {@link recordSession} and {@link readRecording} make and read the recordings.
 */

export {
  type BacktestSpec,
  loadBacktestSpec,
  type ParamOverrides,
  parseBacktestSpec,
  RANK_METRICS,
  type RankMetric,
} from '../backtest/backtest-spec.ts';
export {
  type Charges,
  type CostModel,
  type CostOverrides,
  costModel,
  DEFAULT_COSTS,
} from '../backtest/cost-model.ts';
export { formatSummary } from '../backtest/format-summary.ts';
export { type EquityPoint, type Summary, summarize } from '../backtest/metrics.ts';
export { type RecordSessionOptions, recordSession } from '../backtest/record-session.ts';
export { reportHtml } from '../backtest/report-html.ts';
export { reportJson } from '../backtest/report-json.ts';
export type { RoundTrip } from '../backtest/round-trips.ts';
export {
  type BacktestResult,
  type IntentRecord,
  type RunBacktestOptions,
  runBacktest,
} from '../backtest/run-backtest.ts';
export { sweepGrid } from '../backtest/sweep-grid.ts';
export type { SweepExecutor, SweepJob, SweepResult } from '../backtest/sweep-protocol.ts';
export {
  type RankedSweep,
  rankResults,
  runSweep,
  type SweepOptions,
} from '../backtest/sweep-runner.ts';
export { ThreadPoolExecutor } from '../backtest/thread-pool-executor.ts';
export type { FillRecord, OrderCost } from '../backtest/trade-ledger.ts';
export { writeReport } from '../backtest/write-report.ts';
export { type Recording, readRecording } from '../recording/read-recording.ts';
export { type RecordedInstrument, Recorder, type RecorderOptions } from '../recording/recorder.ts';
