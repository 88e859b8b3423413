/* Sleeps far past any wall limit without using CPU: must still be TLE, soon. */
#include <unistd.h>

int main(void) {
    sleep(30);
    return 0;
}
