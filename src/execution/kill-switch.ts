import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import { istDayNumber } from '../domain/ist.ts';
import type { Journal } from './journal.ts';
import type { RiskLimits } from './risk/risk-limits.ts';

const KILL_META = 'killSwitch';

/** IST day the switch tripped on, and each day's starting PnL; persisted as journal meta. */
interface KillState {
  day: number | undefined;
  baselines: Record<number, number>;
}

/**
 * The daily-loss kill switch: trips when PnL falls the limit below the day's first
 * look, and stays tripped for the rest of that IST day, across restarts.
 */
export class KillSwitch {
  private state: KillState = { day: undefined, baselines: {} };

  constructor(
    private readonly deps: { journal: Journal; clock: Clock; logger: Logger; limits: RiskLimits },
  ) {}

  /** Restores the state a previous run persisted. */
  load(): void {
    const kill = this.deps.journal.getMeta(KILL_META);
    if (kill !== undefined) this.state = JSON.parse(kill) as KillState;
  }

  /** Whether the kill switch has tripped today. */
  get killed(): boolean {
    return this.state.day === istDayNumber(this.deps.clock.now());
  }

  /**
   * Trips the switch by hand (an operator's control) for the rest of the IST day; false
   * when it had already tripped today.
   */
  trip(who: string): boolean {
    if (this.killed) return false;
    this.state = { ...this.state, day: istDayNumber(this.deps.clock.now()) };
    this.deps.journal.setMeta(KILL_META, JSON.stringify(this.state));
    this.deps.logger.error(
      { who, flatten: this.deps.limits.flattenOnKill },
      'kill switch tripped by hand: no new entries today',
    );
    return true;
  }

  /**
   * Checks the day's PnL `total` against the day's baseline; true when the switch
   * trips now (not when it had already tripped).
   */
  check(total: number): boolean {
    const { journal, limits } = this.deps;
    const day = istDayNumber(this.deps.clock.now());
    let baseline = this.state.baselines[day];
    if (baseline === undefined) {
      // The day's first look: what came before today is not today's loss.
      baseline = total;
      this.state = { day: this.state.day, baselines: { [day]: baseline } };
      journal.setMeta(KILL_META, JSON.stringify(this.state));
    }
    const loss = baseline - total;
    if (this.killed || loss < limits.dailyMaxLoss) return false;
    this.state = { ...this.state, day };
    journal.setMeta(KILL_META, JSON.stringify(this.state));
    this.deps.logger.error(
      { loss, limit: limits.dailyMaxLoss, flatten: limits.flattenOnKill },
      'kill switch tripped: the daily loss limit is reached; no new entries today',
    );
    return true;
  }
}
