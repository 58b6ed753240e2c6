/** One problem in a config file: where, and what was expected. */
export interface ConfigProblem {
  /** Field path, e.g. `strategies[0].params.fast`; empty for the whole file. */
  path: string;
  message: string;
}

/**
 * A config file is unusable. The message names the file, each field path and what was
 * expected, e.g. `config/paper.yaml: marketData.intervalMs: expected number >= 100`.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[], options?: { cause?: unknown }) {
    super(
      `${file}: ${problems.map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`)).join('; ')}`,
      options,
    );
    this.file = file;
    this.problems = problems;
  }
}
