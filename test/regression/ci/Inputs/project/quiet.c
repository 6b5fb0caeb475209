void count_hit(void);
int main(void) {
  count_hit();
  return 0;
}
