// A library unit (wired_units.test): reads only.
#include "wired.h"
int gb(struct s *p) { return p->next->y + p->x; }
