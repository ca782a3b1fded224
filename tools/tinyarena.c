/* tinyarena CLI entry point (placeholder until the plan command lands). */
#include <stdio.h>
int main(void) {
    puts("tinyarena");
    return 0;
}
