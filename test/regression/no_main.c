// RUN: %crace --verify %s
// Without main (a driver) the lockset engine has no threads to analyse.
// expected-verdict: unknown
int x;
void handler(void) { x++; }
