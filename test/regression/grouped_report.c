// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// RUN: %not %crace --engine=lockset --group=none %s | %FileCheck --check-prefix=NONE %s
// RUN: %not %crace --engine=lockset --max-findings=2 %s | %FileCheck --check-prefix=CUT %s
// RUN: %not %crace --engine=lockset --format=json %s | %FileCheck --check-prefix=JSON %s
// RUN: %not %crace --engine=lockset --format=html -o %t.html %s
// RUN: %FileCheck --check-prefix=HTML %s < %t.html
// RUN: %not %crace --engine=lockset --format=html --group=none -o %t.none.html %s
// RUN: %FileCheck --check-prefix=HTMLNONE %s < %t.none.html
// RUN: %not %crace --engine=lockset --format=sarif %s | %FileCheck --check-prefix=SARIF %s
// Possible races on one variable are one diagnostic: the first pair in full,
// the others one line each; a cut report shares its places among the
// variables, so the single pair on 'hits' is not lost behind 'stats'.
//
// CHECK: grouped_report.c:[[@LINE+25]]:{{.*}} warning: possible data race on 'stats'
// CHECK: note: concurrent because
// CHECK-NEXT: note: 3 more pairs of accesses on 'stats' may race:
// CHECK-NEXT: grouped_report.c:[[@LINE+22]]:11 read by 'reader' (no locks) / {{.*}}grouped_report.c:{{[0-9]+}}:9 write by 'main' (no locks)
// CHECK-NOT: on 'stats'
// CHECK: warning: possible data race on 'hits'
// CHECK-NOT: on 'stats'
// CHECK: verdict: possible-race (5 findings
//
// NONE-COUNT-4: warning: possible data race on 'stats'
// NONE-NOT: more pairs
// NONE: warning: possible data race on 'hits'
//
// CUT: warning: possible data race on 'stats'
// CUT-NOT: more pairs
// CUT: warning: possible data race on 'hits'
// CUT: showing 2 of 5 findings
//
// JSON: "variable": "stats",
// JSON-NEXT: "group": 0,
// JSON: "variable": "hits",
// JSON-NEXT: "group": 1,
#include <pthread.h>
int stats, hits;
void *reader(void *arg) {
  int a = stats;
  int b = stats + 1;
  return (void *)(long)(a + b);
}
void *counter(void *arg) {
  hits++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, counter, 0);
  stats = 1;
  stats = 2;
  hits = 3;
  return 0;
}

// The HTML page has one entry per variable: the summary counts the pairs,
// the first pair is shown in full and the others are folded in a table.
// HTML: <table class="summary">
// HTML: <code>stats</code></td><td>grouped_report.c:{{[0-9]+}}</td><td>grouped_report.c:{{[0-9]+}}</td><td class="pairs">4</td>
// HTML: <code>hits</code></td>{{.*}}<td class="pairs">1</td>
// HTML: <h2>1. possible data race on <code>stats</code> (4 pairs)</h2>
// HTML: <details class="group-rest"><summary>3 more pairs of accesses on <code>stats</code> may race</summary>
// HTML-SAME: <td>grouped_report.c:{{[0-9]+}} read</td><td>reader</td><td>none</td>
// HTML: <h2>2. possible data race on <code>hits</code></h2>
// HTML-NOT: group-rest
// HTMLNONE-COUNT-4: <h2>{{[0-9]}}. possible data race on <code>stats</code></h2>
// HTMLNONE-NOT: group-rest
//
// SARIF: "group": 0,
// SARIF: "group": 1,
