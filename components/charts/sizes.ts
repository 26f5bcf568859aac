// Chart heights, known before a chart's code has loaded, so its space is kept from the first paint.

/** The waterfall's height for its rows: a bar each, and room for the axis. */
export const waterfallChartHeight = (rows: number) => Math.max(160, rows * 34 + 48);

/** The time chart's default height. */
export const TIME_CHART_HEIGHT = 112;
