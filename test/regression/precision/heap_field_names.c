// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// Heap blocks are named as the program types them: by the struct its
// variable points to, by the field the pointer is stored in, or else by the
// struct field the access reaches (issue 16: "report in the program's own
// terms"), with the element index in an array of structs.
// CHECK-DAG: race on 'struct job.done in the heap object allocated at {{.*}}heap_field_names.c:{{[0-9]+}}:{{[0-9]+}}'
// CHECK-DAG: race on 'struct stats.hits in the heap object allocated at {{.*}}heap_field_names.c:{{[0-9]+}}:{{[0-9]+}}'
// CHECK-DAG: race on 'struct cell[2].count in the heap object allocated at {{.*}}heap_field_names.c:{{[0-9]+}}:{{[0-9]+}}'
#include <pthread.h>
#include <stdlib.h>
struct job {
  int id;
  int done;
};
struct stats {
  long misses;
  long hits;
};
struct cell {
  char tag;
  int count;
};
struct holder {
  struct stats *stats;
};
struct job *job;
struct holder holder;
void *blob;
void *worker(void *arg) {
  job->done = 1;
  holder.stats->hits++;
  ((struct cell *)blob)[2].count++;
  return 0;
}
int main(void) {
  job = malloc(sizeof *job);
  holder.stats = calloc(1, sizeof(struct stats));
  blob = calloc(4, sizeof(struct cell));
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  return 0;
}
