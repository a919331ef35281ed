/**
 * How daily records are assembled, worded so the docs and the OpenAPI description can quote them. The provider
 * publishes no day record, so each of these is a choice the service made, not a fact about the provider.
 */
export const DAILY_RULES = {
  precipitation:
    "Precipitation is the sum over a non-overlapping cover of the provider's periods: every 1-hour period, then each " +
    "6-hour period that overlaps none already taken (in practice the 6-hourly periods after the hourly range). " +
    "Overlapping periods are never added twice. Null when no period counted for the day carries an amount.",
  midnightCrossing:
    "A provider period that crosses local midnight counts in full towards the local day in which it starts. " +
    "The provider gives one amount for the whole period, so it is not split by guessing when the precipitation fell.",
  temperature:
    "Minimum and maximum come from the instant temperatures at the provider steps inside the local day, together " +
    "with the minimum and maximum of each 6-hour period lying wholly inside the day (for a period crossing midnight " +
    "the provider does not say on which side the extreme fell). Null when there are none.",
  condition:
    "The condition of the 6-hour period containing local noon, the one centred nearest noon when several do. " +
    "When no period contains noon (a first or last day the forecast does not reach at noon): the condition code " +
    "covering the most hours of the day among the periods counted for precipitation, ties to the earlier.",
  partialDay:
    "hoursCovered counts the whole hours of the local day (23, 24 or 25 around daylight-saving changes) lying inside " +
    "the periods counted for precipitation, clipped at midnight. A day is partial when they cover less than all of " +
    "it; the first and last days normally are.",
} as const;
