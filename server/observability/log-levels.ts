/** The structured log's levels, most severe first; `silent` logs nothing. Apart from logger.ts so that reading a
 * configuration does not load pino. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
