// Included by util.c alone (cache.test).
#define UTIL_STEP 1
