// The one unit that includes util.h (cache.test changes it).
#include "util.h"

int util_value(void) { return UTIL_STEP; }
