struct s {
  int x;
};
