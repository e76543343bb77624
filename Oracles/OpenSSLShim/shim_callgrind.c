#include "shim_callgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define RF_HAVE_CALLGRIND 1
#endif
#endif

int rf_callgrind_active(void) {
#ifdef RF_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void rf_callgrind_zero(void) {
#ifdef RF_HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

void rf_callgrind_dump(void) {
#ifdef RF_HAVE_CALLGRIND
    CALLGRIND_DUMP_STATS;
#endif
}
