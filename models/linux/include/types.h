/* WHOOP's asm/ebcdic.h includes <types.h>: the kernel types. */
#include <linux/types.h>
