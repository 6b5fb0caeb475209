// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// A harness constraint given on the command line: the kernel never runs
// read and write concurrently, nor write with itself (a device that allows
// one writer at a time, say). Without it, the race on 'status' is reported;
// with it, the driver is race-free and the constraint is printed.
// RUN: %crace --driver --engine=lockset --not-concurrent=dev_read:dev_write,dev_write:dev_write %s -- -I %S/Inputs | %FileCheck --check-prefix=ON %s
// ON: crace: verdict: race-free
// ON: harness constraint not-concurrent: dev_read and dev_write never run concurrently
// ON: harness constraint not-concurrent: dev_write never runs concurrently with itself
// Only one of the two pairs: write still races with itself.
// RUN: %not %crace --driver --engine=lockset --not-concurrent=dev_read:dev_write %s -- -I %S/Inputs | %FileCheck --check-prefix=HALF %s
// HALF: possible data race on 'status' (write by thread 'entry point dev_write (instance 0)' / write by thread 'entry point dev_write (instance 1)')
// HALF-NOT: read by
// HALF: crace: verdict: possible-race
// The same constraints from a config file.
// RUN: %crace --driver --engine=lockset --harness-config=%S/Inputs/not_concurrent.cfg %s -- -I %S/Inputs | %FileCheck --check-prefix=ON %s
// A name that is not an entry point, a malformed pair and a bad config line
// are usage errors (exit 3) that say what is wrong.
// RUN: %not %crace --driver --engine=lockset --not-concurrent=dev_read:nosuch %s -- -I %S/Inputs 2>&1 | %FileCheck --check-prefix=BADNAME %s
// BADNAME: error: --not-concurrent: 'nosuch' is not an entry point of the driver
// RUN: %not %crace --driver --engine=lockset --not-concurrent=dev_read %s -- -I %S/Inputs 2>&1 | %FileCheck --check-prefix=BADPAIR %s
// BADPAIR: error: --not-concurrent=dev_read: expected two entry points, e.g. f:g
// RUN: %not %crace --driver --engine=lockset --harness-config=%S/Inputs/bad.cfg %s -- -I %S/Inputs 2>&1 | %FileCheck --check-prefix=BADCFG %s
// BADCFG: error: {{.*}}bad.cfg:3: cannot read 'not-concurrent dev_read' (expected
// RUN: %not %crace --driver --engine=lockset --harness-config=%S/Inputs/nosuch.cfg %s -- -I %S/Inputs 2>&1 | %FileCheck --check-prefix=NOCFG %s
// NOCFG: error: cannot read harness config '{{.*}}nosuch.cfg'
// expected-verdict: possible-race
#include "kernel.h"
static int status;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n, loff_t *pos) {
  return status;                           // expected-race
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  status = (int)n;                         // expected-race
  return n;
}
static const struct file_operations fops = {.read = dev_read, .write = dev_write};
static int dev_init(void) { return misc_register((void *)&fops); }
module_init(dev_init);
