// Program 'tool': calls a function that only the program 'racy' defines.
void racy_helper(void);

int main(void) {
  racy_helper();
  return 0;
}
