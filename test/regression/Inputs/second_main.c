/* A second translation unit with a main of its own. */
int main(void) { return 1; }
