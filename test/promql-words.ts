// Every word PromQL gives a meaning of its own, written out here independently of the builder in
// lib/prometheus/promql.ts, so a test can ask both grammars (lezer-promql and promtool's) whether
// the builder's selectors of metrics named like them read as metrics. From Prometheus's
// promql/parser/lex.go (keywords, aggregations, modifiers), its functions.go, and lezer-promql.

// prettier-ignore
export const PROMQL_KEYWORDS = [
  "and", "or", "unless", "atan2",
  "sum", "avg", "count", "min", "max", "group", "stddev", "stdvar", "topk", "bottomk", "count_values", "quantile",
  "limitk", "limit_ratio",
  "offset", "by", "without", "on", "ignoring", "group_left", "group_right", "bool",
  "start", "end", "step", "range", "smoothed", "anchored", "fill", "fill_left", "fill_right",
  "inf", "nan", "Inf", "NaN", "INF", "NAN", "Atan2", "ATAN2", "Offset", "BOOL", "On",
] as const;

// prettier-ignore
export const PROMQL_FUNCTIONS = [
  "abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh", "avg_over_time",
  "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh", "count_over_time", "days_in_month",
  "day_of_month", "day_of_week", "day_of_year", "deg", "delta", "deriv", "exp", "floor", "histogram_avg",
  "histogram_count", "histogram_fraction", "histogram_quantile", "histogram_stddev", "histogram_stdvar",
  "histogram_sum", "double_exponential_smoothing", "holt_winters", "hour", "idelta", "increase", "info", "irate",
  "label_replace", "label_join", "last_over_time", "ln", "log10", "log2", "mad_over_time", "max_over_time",
  "min_over_time", "ts_of_max_over_time", "ts_of_min_over_time", "ts_of_last_over_time", "first_over_time",
  "ts_of_first_over_time", "minute", "month", "pi", "predict_linear", "present_over_time", "quantile_over_time",
  "rad", "rate", "resets", "round", "scalar", "sgn", "sin", "sinh", "sort", "sort_desc", "sort_by_label",
  "sort_by_label_desc", "sqrt", "stddev_over_time", "stdvar_over_time", "sum_over_time", "tan", "tanh",
  "timestamp", "time", "vector", "year", "start_timestamp",
] as const;

export const PROMQL_WORDS: readonly string[] = [...PROMQL_KEYWORDS, ...PROMQL_FUNCTIONS];
