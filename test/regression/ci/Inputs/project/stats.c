int hits;
void count_hit(void) { hits++; }
