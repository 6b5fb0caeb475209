// Declarations main.c and worker.c share (cache.test).
int util_value(void);
void *worker(void *arg);
