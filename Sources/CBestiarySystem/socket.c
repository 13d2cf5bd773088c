#define _GNU_SOURCE
#include "cbestiary_system.h"
#include <fcntl.h>
#include <sys/socket.h>

int cbestiary_accept_cloexec(int listener) {
#if defined(__linux__)
    return accept4(listener, 0, 0, SOCK_CLOEXEC);
#else
    int fd = accept(listener, 0, 0);
    if (fd >= 0) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        /* BSD sockets inherit the listener's O_NONBLOCK; connections here block. */
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    return fd;
#endif
}
