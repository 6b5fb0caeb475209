/* crace's stand-in for SMACK's smack.h, which WHOOP's kernel model headers
   include. __SMACK_nondet is modelled (any value); __SMACK_code and friends
   embed Boogie text that crace cannot analyse: a call that survives (in a
   header function crace does not replace by its own model) is reported as
   an unknown external function. */
#ifndef CRACE_SMACK_H
#define CRACE_SMACK_H
void __SMACK_code(const char *fmt, ...);
void __SMACK_mod(const char *fmt, ...);
void __SMACK_decl(const char *fmt, ...);
void __SMACK_top_decl(const char *fmt, ...);
int __SMACK_nondet(void);
void __VERIFIER_assume(int);
void *malloc(unsigned long);
void free(void *);
/* Kernel helpers WHOOP's headers and drivers use without declaring them:
   implicitly declared, they would return int, and a pointer made from an
   int points anywhere for crace's analyses. */
void *ERR_PTR(long error);
long PTR_ERR(const void *ptr);
void *pci_iomap(void *pdev, int bar, unsigned long max);
void *pci_ioremap_bar(void *pdev, int bar);
void *pci_alloc_consistent(void *pdev, unsigned long size, void *dma_handle);
void *kcalloc(unsigned long n, unsigned long size, unsigned flags);
void *kmalloc_array(unsigned long n, unsigned long size, unsigned flags);
void *vzalloc(unsigned long size);
void *devm_kzalloc(void *dev, unsigned long size, unsigned flags);
void *devm_kmalloc(void *dev, unsigned long size, unsigned flags);
char *kstrdup(const char *s, unsigned flags);
char *kstrndup(const char *s, unsigned long n, unsigned flags);
unsigned long __get_free_pages(unsigned flags, unsigned order);
unsigned long get_zeroed_page(unsigned flags);
#endif
