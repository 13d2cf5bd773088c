#include "cbestiary_system.h"

#include <signal.h>
#include <stddef.h>

int cbestiary_signal_ignored(int number) {
    struct sigaction current;
    if (sigaction(number, NULL, &current) != 0) return 0;
    return current.sa_handler == SIG_IGN ? 1 : 0;
}
