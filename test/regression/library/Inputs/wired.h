struct t {
  int y;
};
struct s {
  int x;
  struct t *next;
};
