// Characters that end a line or stop a parser somewhere text people typed travels: YAML 1.1 and
// Go's yaml.v3 (Prometheus's rule files) read U+0085, U+2028 and U+2029 as line breaks and refuse
// other C1 controls, U+FEFF, U+FFFE and U+FFFF outright; C0 controls and DEL break YAML, logs and
// terminals. One "Fast\u2028answers" in a rule file failed every service's rules.

/** Anything but a one-line text: C0 controls, DEL, C1 controls, U+2028/U+2029, U+FEFF, U+FFFE/U+FFFF. */
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;

/** The same, except the tab and the line breaks (\n, \r) that multi-line text keeps. */
export const NOT_PLAIN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
