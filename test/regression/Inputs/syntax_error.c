/* Does not compile: crace shows clang's diagnostic and exits with 4. */
int main(void) {
  return x +;
}
