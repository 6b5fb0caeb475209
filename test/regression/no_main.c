// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Without main (a driver) the lockset engine has no threads to analyse.
// expected-verdict: unknown
int x;
void handler(void) { x++; }
