import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { parseEnv } from 'node:util';
import type { Logger } from 'pino';
import type { Credentials } from '../api/tiqs-client.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { loadConfig } from '../config/load-config.ts';
import { readTokenFile } from './read-token-file.ts';

/** How often the token file's stat is polled, ms: portable, and cheap at this interval. */
const TOKEN_FILE_POLL_MS = 2_000;

/** What {@link CredentialReload} needs. */
export interface CredentialReloadOptions {
  /** The config file SIGHUP re-reads. */
  configFile: string;
  /** The config the bot started with: its token, appId and token file. */
  config: RunnerConfig;
  logger: Logger;
  /** Hands new credentials to the bot (`Kernel.setCredentials`). */
  setCredentials(credentials: Credentials): void;
  /** The env file whose values win on SIGHUP. Default: `.env` in the working directory. */
  envFile?: string;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The one owner of new credentials while a bot runs (a new day's token): SIGHUP re-reads
 * the config with the env file's values, and a change of `broker.tokenFile` reads the
 * file; either hands the token to the bot, which resumes if it was paused. Nothing it
 * logs carries the token.
 *
 * @example
 * ```ts
 * const reload = CredentialReload.start({ configFile, config, logger, setCredentials: (c) => kernel.setCredentials(c) });
 * // … until the bot stops:
 * reload.close();
 * ```
 */
export class CredentialReload {
  private currentToken: string | undefined;
  private readonly onHangUp = () => void this.reloadConfig();
  private readonly tokenFile: string | undefined;

  private constructor(private readonly options: CredentialReloadOptions) {
    const { broker } = options.config;
    this.currentToken = broker.token;
    // Without an appId a token alone is no credentials: the file is not watched.
    this.tokenFile = broker.appId === undefined ? undefined : broker.tokenFile;
  }

  /** Listens for SIGHUP and watches the token file, if the config names one. */
  static start(options: CredentialReloadOptions): CredentialReload {
    const reload = new CredentialReload(options);
    process.on('SIGHUP', reload.onHangUp);
    if (reload.tokenFile !== undefined) {
      watchFile(reload.tokenFile, { interval: TOKEN_FILE_POLL_MS }, () => {
        void reload.reloadTokenFile();
      });
    }
    return reload;
  }

  /**
   * What SIGHUP does: re-reads the config, the env file's values winning over the
   * environment the process started with (`process.loadEnvFile` would not override),
   * and hands over the token unless it is the one in use.
   */
  async reloadConfig(): Promise<void> {
    const { logger, envFile = '.env' } = this.options;
    try {
      const env = existsSync(envFile)
        ? { ...process.env, ...parseEnv(readFileSync(envFile, 'utf8')) }
        : process.env;
      const fresh = await loadConfig(this.options.configFile, env);
      const { appId, token } = fresh.broker;
      if (appId === undefined || token === undefined) {
        logger.warn('SIGHUP: the config has no appId/token to reload');
        return;
      }
      if (token === this.currentToken) {
        logger.warn('SIGHUP: the token is unchanged; still using the old one');
        return;
      }
      this.currentToken = token;
      this.options.setCredentials({ appId, token });
      logger.info('credentials reloaded on SIGHUP');
    } catch (err) {
      logger.error({ err: message(err) }, 'SIGHUP: could not reload the config');
    }
  }

  /** What a change of the token file does: reads it and hands over a new, non-empty token. */
  async reloadTokenFile(): Promise<void> {
    const { logger, config } = this.options;
    const file = this.tokenFile;
    const appId = config.broker.appId;
    if (file === undefined || appId === undefined) return;
    try {
      const token = await readTokenFile(file);
      // A rewrite with the token in use (or an empty file) changes nothing: handing it
      // over again would resume a paused bot only to be refused once more.
      if (token === '' || token === this.currentToken) return;
      this.currentToken = token;
      this.options.setCredentials({ appId, token });
      logger.info({ file }, 'token file changed: credentials reloaded');
    } catch (err) {
      logger.warn({ err: message(err) }, 'token file unreadable');
    }
  }

  /** Stops listening and watching. */
  close(): void {
    if (this.tokenFile !== undefined) unwatchFile(this.tokenFile);
    process.off('SIGHUP', this.onHangUp);
  }
}
