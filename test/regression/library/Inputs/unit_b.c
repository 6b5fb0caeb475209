// A library unit (two_units.test).
#include "two_units.h"
void fb(struct s *p) { p->x = 0; }
