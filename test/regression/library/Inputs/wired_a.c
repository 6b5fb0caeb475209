// A library unit (wired_units.test): reads only.
#include "wired.h"
int ga(struct s *p) { return p->next != 0; }
