#ifndef RECEIPT_FORGE_SHIM_CALLGRIND_H
#define RECEIPT_FORGE_SHIM_CALLGRIND_H
// Callgrind client requests for `scripts/bench --instructions` (bench only): zero the
// instruction counters before a measured loop and dump them after it. Outside
// valgrind, or where valgrind's headers are absent at build time, they do nothing.

/// 1 if running under valgrind and the client requests were compiled in.
int rf_callgrind_active(void);
/// Zeroes callgrind's counters.
void rf_callgrind_zero(void);
/// Writes callgrind's counters to the next dump file (OUT.1, OUT.2, … for
/// --callgrind-out-file=OUT).
void rf_callgrind_dump(void);
#endif
