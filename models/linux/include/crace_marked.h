/* The Linux kernel's marked accesses, as KCSAN treats them, for driver
   headers that do not define them (WHOOP's model headers; a kernel's own
   <linux/compiler.h> defines them later and its definitions win).
   Forced into every driver-mode unit (docs/usage.md, "Drivers").

   READ_ONCE/WRITE_ONCE are relaxed atomic accesses: two marked accesses
   never race, a marked access against a plain write still does.
   ACCESS_ONCE (older kernels) is an lvalue, so it stays a volatile access,
   which is plain to crace. data_race(expr) marks a race as intended: crace
   suppresses races on the line it is written on (report/Suppressions.cpp). */
#ifndef CRACE_MARKED_H
#define CRACE_MARKED_H
#ifndef READ_ONCE
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val) __atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#endif
#ifndef ACCESS_ONCE
#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#endif
#ifndef data_race
#define data_race(expr) (expr)
#endif
#endif
