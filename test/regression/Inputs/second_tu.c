/* Second translation unit of two_units.c. */
extern int shared;
extern int guarded;
void lock_it(void);
void unlock_it(void);
void *other(void *p) {
  shared = 2;           /* races with two_units.c */
  lock_it();
  guarded++;
  unlock_it();
  return 0;
}
