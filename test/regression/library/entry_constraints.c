// RUN: %crace --verify --library --engine=lockset --entry=get_a %s
// RUN: %crace --verify --library --engine=lockset --not-concurrent=set_a:get_a,set_a:set_a,set_b:set_b %s
// RUN: %crace --library --engine=lockset --not-concurrent=set_a:get_a,set_a:set_a,set_b:set_b %s | %FileCheck --check-prefix=NC %s
// RUN: %not %crace --library --engine=lockset %s 2>&1 | %FileCheck --check-prefix=ALL %s
// RUN: %not %crace --library --not-concurrent=set_a:nosuch %s 2>&1 | %FileCheck --check-prefix=BAD %s
// RUN: %not %crace --library --driver %s 2>&1 | %FileCheck --check-prefix=BOTH %s
// --entry chooses the entry points of a library; --not-concurrent states
// which calls its users never make at once. Called freely, set_a races with
// itself and with get_a, and set_b with itself.
// NC: harness constraint not-concurrent: set_a and get_a never run concurrently
// ALL-DAG: possible data race on 'a'
// ALL-DAG: possible data race on 'mine'
// BAD: --not-concurrent: 'nosuch' is not an entry point of the library
// BOTH: --driver and --library exclude each other
// expected-verdict: race-free
int a;
void set_a(int v) { a = v; }
int get_a(void) { return a; }
void set_b(int v) {
  static int mine;
  mine = v;
}
