/* Links against an installed libmpiguide and its header (tests/install). */
#include <stdio.h>

#include <mpiguide.h>

int main(void) {
  printf("consumer: mpiguide %s\n", mpiguide_version());
  return 0;
}
