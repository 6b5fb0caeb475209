// A library unit (two_units.test).
#include "two_units.h"
void fa(struct s *p) { p->x++; }
