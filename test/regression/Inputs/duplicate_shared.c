/* A second translation unit that defines two_units.c's global again: the
   program does not link. */
int shared = 3;
int get_shared(void) { return shared; }
